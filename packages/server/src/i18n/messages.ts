import { IntlMessageFormat } from 'intl-messageformat';
import { CATALOGUES, type Catalogue, type MessageKey } from './catalogues/index.js';
import { DEFAULT_LANG, type Direction, directionOf, type Lang } from './languages.js';

export type { MessageKey } from './catalogues/index.js';
/** What a message's placeholders take: exact amounts are passed as text, never as numbers. */
export type MessageValues = Record<string, string | number | Date>;
export type Translate = (key: MessageKey, values?: MessageValues) => string;

/** A language ready to write with: its code (also the `Intl` locale), direction and messages. */
export interface Speech {
  lang: Lang;
  dir: Direction;
  t: Translate;
}

// Compiled on first use, not at start: a server that never renders a page in Japanese never parses it.
const compiled = new Map<string, IntlMessageFormat>();

/** How many messages have been compiled so far (a test holds start-up at none). */
export function compiledMessages(): number {
  return compiled.size;
}

function formatter(lang: Lang, key: MessageKey): IntlMessageFormat {
  const id = `${lang}\u0000${key}`;
  let f = compiled.get(id);
  if (f === undefined) {
    const catalogue: Catalogue = CATALOGUES[lang];
    f = new IntlMessageFormat(catalogue[key], lang, undefined, { ignoreTag: true });
    compiled.set(id, f);
  }
  return f;
}

/** The message `key` in `lang`, with `values` in its placeholders (ICU plurals and selects). */
export function translate(lang: Lang, key: MessageKey, values?: MessageValues): string {
  return String(formatter(lang, key).format(values));
}

const speeches = new Map<Lang, Speech>();
export function speechOf(lang: Lang): Speech {
  let s = speeches.get(lang);
  if (s === undefined) {
    s = { lang, dir: directionOf(lang), t: (key, values) => translate(lang, key, values) };
    speeches.set(lang, s);
  }
  return s;
}

export const ENGLISH: Speech = speechOf(DEFAULT_LANG);
