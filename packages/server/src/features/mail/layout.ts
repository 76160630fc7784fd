import type { Speech } from '../../i18n/messages.js';

/**
 * The one layout of every mail (docs/mail.md, "What a mail looks like"): an HTML part and a
 * text part from the same blocks, in the mail's language (its `lang` and `dir` on the HTML: an
 * Arabic mail reads right to left). Everything a merchant or a payer typed reaches the HTML only
 * through `escapeHtml`, and a header (the subject, the From phrase) only through `oneLine`.
 */

export interface MailBrand {
  /** The merchant's name (display name, else name); null: hostpay's own mail (operators). */
  name: string | null;
  /** An https or data:image logo; null: none. */
  logoUrl: string | null;
  /**
   * The merchant's colours (settings, self-service/brand.ts): the brand fills the top band and the
   * buttons under white text, the accent colours links. Only payer mails carry them; absent, null
   * or not `#rrggbb`: the layout's own.
   */
  brandColor?: string | null;
  accentColor?: string | null;
}

/** One block of a mail's body. */
export type Block =
  | { p: string }
  | { button: { label: string; url: string } }
  | { rows: readonly (readonly [string, string])[] }
  | { small: string };

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

/** Header-safe text: control characters (CR, LF, tabs, …) and line separators become spaces. */
export const oneLine = (s: string) =>
  s
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

/** A logo a mail client may show: https, or an inline image. */
const showableLogo = (url: string | null) =>
  url !== null && (url.startsWith('https://') || /^data:image\/(png|jpeg|webp);base64,/.test(url)) ? url : null;

/** Every colour of the layout, in one place (the merchant's own may replace `accent` and `link`). */
const COLOURS = {
  text: '#222',
  muted: '#666',
  page: '#f5f5f5',
  card: '#fff',
  rule: '#ddd',
  sandbox: '#a15c00',
  accent: '#1f4fd1',
  onAccent: '#fff',
  /** The URL written under each button, which mail clients show as a link. */
  link: '#666',
} as const;

type Colours = { readonly [K in keyof typeof COLOURS]: string };

/**
 * The layout's colours with the merchant's in place. Settings store only checked lowercase
 * `#rrggbb` (the brand legible under white text), but a value is written into style attributes,
 * so anything else stored falls back here rather than reaching the HTML.
 */
export function mailColours(brand: Pick<MailBrand, 'brandColor' | 'accentColor'>): Colours {
  const hex = (v: string | null | undefined) => (typeof v === 'string' && /^#[0-9a-f]{6}$/.test(v) ? v : null);
  return { ...COLOURS, accent: hex(brand.brandColor) ?? COLOURS.accent, link: hex(brand.accentColor) ?? COLOURS.link };
}

type Dir = Speech['dir'];

function blockHtml(b: Block, dir: Dir, c: Colours): string {
  if ('p' in b) return `<p style="margin:0 0 16px">${escapeHtml(b.p)}</p>`;
  if ('small' in b) return `<p style="margin:16px 0 0;color:${c.muted};font-size:12px">${escapeHtml(b.small)}</p>`;
  if ('button' in b)
    return `<p style="margin:0 0 16px"><a href="${escapeHtml(b.button.url)}" style="display:inline-block;padding:10px 16px;background:${c.accent};color:${c.onAccent};text-decoration:none;border-radius:4px">${escapeHtml(b.button.label)}</a></p><p dir="ltr" style="margin:0 0 16px;font-size:12px;color:${c.link};word-break:break-all;text-align:${dir === 'rtl' ? 'right' : 'left'}">${escapeHtml(b.button.url)}</p>`;
  // The label's gap is on the side the value follows it: the right in ltr, the left in rtl.
  const gap = dir === 'rtl' ? '2px 0 2px 12px' : '2px 12px 2px 0';
  const align = dir === 'rtl' ? 'right' : 'left';
  const rows = b.rows
    .map(
      ([k, v]) =>
        `<tr><td style="padding:${gap};color:${c.muted};text-align:${align};vertical-align:top">${escapeHtml(k)}</td><td style="text-align:${align}">${escapeHtml(v)}</td></tr>`,
    )
    .join('');
  return `<table dir="${dir}" style="border-collapse:collapse;margin:0 0 16px">${rows}</table>`;
}

function blockText(b: Block): string {
  if ('p' in b) return b.p;
  if ('small' in b) return b.small;
  if ('button' in b) return `${b.button.label}:\n${b.button.url}`;
  return b.rows.map(([k, v]) => `${k}: ${v}`).join('\n');
}

/** What a mail says, in `speech`'s language; `preheader` is the inbox's preview line (else the first paragraph). */
export interface MailText {
  subject: string;
  preheader?: string;
  blocks: readonly Block[];
  footer: string;
}

/**
 * Renders one mail in `speech`'s language: `subject` is made one line (and prefixed with the
 * sandbox tag on a sandbox server); the footer says who sent it and why. No tracking: no remote
 * image but the merchant's own logo, no rewritten link.
 */
export function renderMail(brand: MailBrand, mail: MailText, sandbox: boolean, speech: Speech): Rendered {
  const { lang, dir, t } = speech;
  const c = mailColours(brand);
  // The band along the card's top is the merchant's: only a mail with a brand colour has one.
  const band = c.accent === COLOURS.accent ? '' : `border-top:6px solid ${c.accent};`;
  const subject = `${sandbox ? `${t('mail.sandboxTag')} ` : ''}${oneLine(mail.subject)}`;
  const sender = brand.name === null ? 'hostpay' : oneLine(brand.name);
  const note = t('mail.sandboxNote');
  const logo = showableLogo(brand.logoUrl);
  const head =
    logo === null
      ? ''
      : `<img src="${escapeHtml(logo)}" alt="" style="max-height:48px;max-width:200px;margin:0 0 16px">`;
  const first = mail.blocks.find((b): b is { p: string } => 'p' in b);
  const preheader = oneLine(mail.preheader ?? first?.p ?? '');
  const align = dir === 'rtl' ? 'right' : 'left';
  const html = [
    `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">`,
    `<title>${escapeHtml(subject)}</title></head>`,
    `<body dir="${dir}" style="margin:0;padding:24px;font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:${c.text};background:${c.page};text-align:${align}">`,
    preheader === ''
      ? ''
      : `<div style="display:none;max-height:0;overflow:hidden;opacity:0">${escapeHtml(preheader)}</div>`,
    `<div dir="${dir}" style="max-width:560px;margin:0 auto;padding:24px;${band}background:${c.card};border-radius:6px;text-align:${align}">`,
    head,
    `<p style="margin:0 0 16px;font-weight:600">${escapeHtml(sender)}</p>`,
    sandbox ? `<p style="margin:0 0 16px;color:${c.sandbox}">${escapeHtml(note)}</p>` : '',
    ...mail.blocks.map((b) => blockHtml(b, dir, c)),
    `<hr style="border:0;border-top:1px solid ${c.rule};margin:24px 0 12px"><p style="margin:0;color:${c.muted};font-size:12px">${escapeHtml(mail.footer)}</p>`,
    '</div></body></html>',
  ].join('');
  const text = [sender, ...(sandbox ? [note] : []), ...mail.blocks.map(blockText), '--', mail.footer].join('\n\n');
  return { subject, text: `${text}\n`, html };
}
