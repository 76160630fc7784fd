import type { PageSpeech } from '../../../http/payer-language.js';
import { ENGLISH, type Speech } from '../../../i18n/messages.js';
import type { Brand } from '../../self-service/look.js';
import { ASSETS, brandStylesheet } from '../assets.js';
import { html, type SafeHtml } from '../html.js';

export interface LayoutInput {
  title: string;
  sandbox: boolean;
  /** `data-status` of <body>: the state's colours. */
  status: string;
  body: SafeHtml;
  /** false: no script (pages with nothing to update). */
  script?: boolean;
  /**
   * The payer's language (http/payer-language.ts): `lang` and `dir` of the document, and the
   * picker when it has links. Without it the page is English with no picker.
   */
  speech?: PageSpeech | Speech;
  /** The merchant's colours (self-service/look.ts `brandOf`): a stylesheet of their own after the page's; null or absent: the default palette. */
  brand?: Brand | null | undefined;
}

/**
 * The language picker: a disclosure of plain links (this page with `?lang=`), so it works without
 * script and needs nothing inline; each name is written in its own language, so a payer finds
 * theirs whatever the page shows now. It sits in the page's flow above the content with a fixed
 * height, so changing language moves nothing.
 */
function picker(s: PageSpeech): SafeHtml {
  const current = s.links.find((l) => l.lang === s.lang);
  return html`<nav class="lang" aria-label="${s.t('common.language')}"><details><summary><span aria-hidden="true">🌐</span> ${current?.name ?? s.lang}</summary><ul>${s.links.map(
    (l) =>
      html`<li><a href="${l.href}" hreflang="${l.lang}" lang="${l.lang}"${l.lang === s.lang ? html` aria-current="true"` : ''}>${l.name}</a></li>`,
  )}</ul></details></nav>`;
}

/** The document around every pay page: its own CSS and script only, the sandbox banner first. */
export function layout(p: LayoutInput): SafeHtml {
  const s = p.speech ?? ENGLISH;
  // Colours stored before a rule changed and no longer accepted give no stylesheet: the default palette.
  const palette = p.brand == null ? undefined : brandStylesheet(p.brand);
  return html`<!doctype html>
<html lang="${s.lang}" dir="${s.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${p.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS.css.path}" integrity="${ASSETS.css.integrity}">
${palette !== undefined && html`<link rel="stylesheet" href="${palette.path}" integrity="${palette.integrity}">`}
${p.script !== false && html`<script src="${ASSETS.js.path}" integrity="${ASSETS.js.integrity}" defer></script>`}
</head>
<body data-status="${p.status}">
${p.sandbox && html`<aside class="sandbox" aria-label="${s.t('common.sandboxLabel')}"><p>${s.t('common.sandbox')}</p></aside>`}
${p.speech !== undefined && 'links' in p.speech && picker(p.speech as PageSpeech)}
${p.body}
</body>
</html>
`;
}
