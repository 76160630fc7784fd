import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The embedded fonts. DejaVu Sans (regular and bold, `dejavu-fonts-ttf`) covers Latin, Greek,
 * Cyrillic, Armenian, Georgian, Hebrew and Arabic letters (with the joining forms fontkit shapes
 * Arabic with) and the currency signs. It has no Chinese or Japanese glyphs: text with them is
 * set in Noto Sans SC or Noto Sans JP (`@fontsource/noto-sans-sc`, `@fontsource/noto-sans-jp`,
 * their `chinese-simplified` / `japanese` WOFF subsets, about 1.6 MB and 1.4 MB a weight, with
 * Latin letters, digits and kana too), read on the first document that has such text. pdfkit
 * embeds only the glyphs a document uses (a subset), with a ToUnicode map, so text in any of these
 * scripts is real text (searchable, `pdftotext` extracts it).
 */
export interface DocumentFonts {
  regular: Buffer;
  bold: Buffer;
}

export type CjkFace = 'sc' | 'jp';

const require = createRequire(import.meta.url);
let loaded: DocumentFonts | undefined;
const cjk = new Map<CjkFace, DocumentFonts>();

export function documentFonts(): DocumentFonts {
  if (loaded === undefined) {
    const file = (name: string) => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));
    loaded = { regular: file('DejaVuSans.ttf'), bold: file('DejaVuSans-Bold.ttf') };
  }
  return loaded;
}

const CJK_FILES: Record<CjkFace, (weight: 400 | 700) => string> = {
  sc: (w) => `@fontsource/noto-sans-sc/files/noto-sans-sc-chinese-simplified-${w}-normal.woff`,
  jp: (w) => `@fontsource/noto-sans-jp/files/noto-sans-jp-japanese-${w}-normal.woff`,
};

/** Noto Sans SC (Simplified Chinese) or JP (Japanese), regular and bold; read once, when first needed. */
export function cjkFonts(face: CjkFace): DocumentFonts {
  let f = cjk.get(face);
  if (f === undefined) {
    const file = (w: 400 | 700) => readFileSync(require.resolve(CJK_FILES[face](w)));
    f = { regular: file(400), bold: file(700) };
    cjk.set(face, f);
  }
  return f;
}
