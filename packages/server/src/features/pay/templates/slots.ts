import type { MessageKey, MessageValues, Speech } from '../../../i18n/messages.js';
import { escapeHtml, SafeHtml } from '../html.js';

const OPEN = '\uE000';
const CLOSE = '\uE001';
const SLOT = /\uE000(\w+)\uE001/g;

/**
 * A message with markup in some placeholders (a `<span data-received>` the script updates, a
 * `<time>`): the message is formatted with a marker in each slot, escaped as text, and only then
 * are the markers replaced by the slots' own SafeHtml. Translators move the placeholders freely;
 * nothing they write becomes markup.
 */
export function slotted(
  s: Speech,
  key: MessageKey,
  slots: Record<string, SafeHtml>,
  values: MessageValues = {},
): SafeHtml {
  const marked: MessageValues = { ...values };
  for (const name of Object.keys(slots)) marked[name] = `${OPEN}${name}${CLOSE}`;
  const text = escapeHtml(s.t(key, marked));
  return new SafeHtml(text.replace(SLOT, (_m, name: string) => slots[name]?.text ?? ''));
}

/**
 * A message for the page's script to fill in the browser (data-* attributes: the CSP allows no
 * inline script): each placeholder as `%name%`, which the script replaces with text or elements.
 */
export const template = (s: Speech, key: MessageKey, names: readonly string[]): string =>
  s.t(key, Object.fromEntries(names.map((n) => [n, `%${n}%`])));
