/**
 * The page's template layer: one tagged template that escapes every interpolated value unless it
 * is already a SafeHtml that this module built. A few dozen lines instead of a template engine
 * (eta, handlebars): the templates are TypeScript functions, so the compiler checks every field
 * they read; nothing is compiled from text at run time (no `new Function`), so nothing needs
 * 'unsafe-eval' and the esbuild bundle of the CLI carries the templates like any other code; and
 * escaping is the default, not a `{{{ }}}` one can forget. Attribute values are always written
 * in double quotes by the templates, and `"`, `'` and `` ` `` are escaped too, so one escape
 * function serves text and attributes alike.
 */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ENTITIES[c] ?? c);
}

/** What a template may interpolate: false, null and undefined write nothing (for `${cond && html`…`}`). */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function write(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.text;
  if (value === null || value === undefined || value === false || value === true) return '';
  if (Array.isArray(value)) return value.map(write).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += write(values[i] as HtmlValue) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** Text that reads left to right whatever the page's direction (an address, an amount, a code), isolated. */
export const ltr = (text: string) => html`<bdi dir="ltr">${text}</bdi>`;

/** An http(s) URL to put in an href, or null: merchant URLs are checked at creation, and again here. */
export function safeHref(url: string | null | undefined): string | null {
  if (url === null || url === undefined) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
