import { html, type SafeHtml } from '../html.js';
import { layout } from './layout.js';

/** Unknown or malformed checkout ids, and too many requests: a page, never a stack or JSON. */
export function messagePage(p: { sandbox: boolean; title: string; message: string }): SafeHtml {
  return layout({
    title: `${p.title} · hostpay`,
    sandbox: p.sandbox,
    status: 'invalid',
    script: false,
    body: html`<main>
<section class="card state">
<h1>${p.title}</h1>
<p>${p.message}</p>
</section>
</main>`,
  });
}

export const notFoundPage = (sandbox: boolean) =>
  messagePage({
    sandbox,
    title: 'Payment page not found',
    message:
      'This payment link is not valid, or it was mistyped. Check the link you were given, or ask the merchant for a new one.',
  });
