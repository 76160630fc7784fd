import type { PageSpeech } from '../../../http/payer-language.js';
import { ENGLISH, type Speech } from '../../../i18n/messages.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from './layout.js';

/**
 * Unknown or malformed ids, and too many requests: a page, never a stack or JSON. With the
 * payer's `speech` it is written in their language, the picker included; without it, English.
 */
export function messagePage(p: {
  sandbox: boolean;
  title: string;
  message: string;
  speech?: PageSpeech | Speech;
}): SafeHtml {
  return layout({
    title: `${p.title} · hostpay`,
    sandbox: p.sandbox,
    status: 'invalid',
    script: false,
    ...(p.speech !== undefined && { speech: p.speech }),
    body: html`<main>
<section class="card state">
<h1>${p.title}</h1>
<p>${p.message}</p>
</section>
</main>`,
  });
}

export const notFoundPage = (sandbox: boolean, speech: PageSpeech | Speech = ENGLISH) =>
  messagePage({ sandbox, speech, title: speech.t('pay.notFoundTitle'), message: speech.t('pay.notFoundMessage') });

/** Too many requests from the payer's address: when to try again, in their language. */
export const tooManyPage = (sandbox: boolean, seconds: number, speech: PageSpeech | Speech = ENGLISH) =>
  messagePage({
    sandbox,
    speech,
    title: speech.t('pay.tooManyTitle'),
    message: speech.t('pay.tooManyMessage', { seconds }),
  });
