import { ASSETS } from '../assets.js';
import { html, type SafeHtml } from '../html.js';

export interface LayoutInput {
  title: string;
  sandbox: boolean;
  /** `data-status` of <body>: the state's colours. */
  status: string;
  body: SafeHtml;
  /** false: no script (pages with nothing to update). */
  script?: boolean;
}

/** The document around every pay page: its own CSS and script only, the sandbox banner first. */
export function layout(p: LayoutInput): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${p.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS.css.path}" integrity="${ASSETS.css.integrity}">
${p.script !== false && html`<script src="${ASSETS.js.path}" integrity="${ASSETS.js.integrity}" defer></script>`}
</head>
<body data-status="${p.status}">
${p.sandbox && html`<aside class="sandbox" aria-label="Sandbox notice"><p>Sandbox: a test server. No real money moves; do not send real funds.</p></aside>`}
${p.body}
</body>
</html>
`;
}
