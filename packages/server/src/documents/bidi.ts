import { createRequire } from 'node:module';

/**
 * Right-to-left text for pdfkit, which sets words left to right in the order it is given them.
 * fontkit shapes each word (Arabic letters joined) and, for a word of a right-to-left script,
 * reverses its glyphs itself; what is left to do here is the order of the words on a line
 * (the Unicode Bidirectional Algorithm, bidi-js) and breaking lines in reading order.
 */
// bidi-js is CommonJS whose export is the factory itself (its types say `default`).
interface Bidi {
  getEmbeddingLevels(text: string, direction?: 'ltr' | 'rtl'): { levels: Uint8Array };
  getReorderSegments(text: string, levels: { levels: Uint8Array }): [number, number][];
  getMirroredCharactersMap(text: string, levels: { levels: Uint8Array }): Map<number, string>;
}
// Loaded on the first right-to-left line, not at start: every server loads this module (features
// name `ltrText`), few draw Arabic or Hebrew, and the factory builds the algorithm's tables.
let loaded: Bidi | undefined;
const bidiJs = (): Bidi => (loaded ??= (createRequire(import.meta.url)('bidi-js') as () => Bidi)());

/** Left-to-right isolate marks: a caller puts a figure, code or address between them (`ltrText`). */
const LRI = '\u2066';
const PDI = '\u2069';
/** Bidi controls: they steer the order, then are taken out (the fonts have no glyph for them). */
const CONTROLS = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;
/** What fontkit sets right to left, reversing it (Arabic and Hebrew letters, Arabic digits, their presentation forms). */
const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const RTL_RUN = /([\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]+)/;

/** `text` kept left to right inside a right-to-left line (an amount, a hash, a number, a URL). */
export const ltrText = (text: string) => `${LRI}${text}${PDI}`;

/** The text without its bidi controls (what a left-to-right document draws). */
export const plain = (text: string) => text.replace(CONTROLS, '');

export const hasRtl = (text: string) => RTL_LETTER.test(text);

/**
 * The words of one line of `text`, left to right as they are seen, each as its runs: a run of
 * right-to-left letters is given in reading order, since fontkit reverses it as it shapes it; the
 * rest as seen. The paragraph's direction is its first strong letter's (as `dir="auto"`), so a
 * line of only figures and Latin letters stays left to right; brackets are mirrored in right-to-left text.
 */
export function visualWords(text: string): string[][] {
  const bidi = bidiJs();
  const levels = bidi.getEmbeddingLevels(text);
  const chars = text.split('');
  for (const [i, mirror] of bidi.getMirroredCharactersMap(text, levels)) chars[i] = mirror;
  for (const [start, end] of bidi.getReorderSegments(text, levels)) {
    const flipped = chars.slice(start, end + 1).reverse();
    chars.splice(start, flipped.length, ...flipped);
  }
  return plain(chars.join(''))
    .split(' ')
    .filter((w) => w !== '')
    .map((w) =>
      w
        .split(RTL_RUN)
        .filter((r) => r !== '')
        .map((r) => (hasRtl(r) ? r.split('').reverse().join('') : r)),
    );
}
