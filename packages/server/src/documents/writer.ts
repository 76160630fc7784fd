import { hasRtl, plain, visualWords } from './bidi.js';
import { type CjkFace, cjkFonts, documentFonts } from './fonts.js';

type Pdf = PDFKit.PDFDocument;

export interface Place {
  width: number;
  align?: 'left' | 'right';
  link?: string | null;
}

/** Han, kana and CJK punctuation: set in Noto Sans SC/JP, which DejaVu Sans lacks. */
const CJK = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/;

/**
 * What the renderer writes text with: it picks the font a text needs (DejaVu Sans, or Noto Sans
 * SC/JP for Chinese and Japanese, registered on first use) and, in a right-to-left document,
 * mirrors the page (what is on the left in English is on the right) and sets right-to-left
 * lines itself: broken in reading order, each line's words placed right to left (bidi.ts).
 */
export class Writer {
  private bold = false;
  private size = 10;
  private readonly registered = new Set<string>();
  readonly rtl: boolean;

  constructor(
    readonly doc: Pdf,
    private readonly lang: string,
    dir: 'ltr' | 'rtl',
  ) {
    this.rtl = dir === 'rtl';
    const fonts = documentFonts();
    doc.registerFont('Doc', fonts.regular);
    doc.registerFont('Doc-Bold', fonts.bold);
  }

  /** The weight and size of the next texts. */
  style(bold: boolean, size: number): this {
    this.bold = bold;
    this.size = size;
    return this;
  }

  private face(text: string): string {
    if (!CJK.test(text)) return this.bold ? 'Doc-Bold' : 'Doc';
    const face: CjkFace = this.lang === 'ja' ? 'jp' : 'sc';
    const name = `${face}${this.bold ? '-Bold' : ''}`;
    if (!this.registered.has(name)) {
      const f = cjkFonts(face);
      this.doc.registerFont(face, f.regular);
      this.doc.registerFont(`${face}-Bold`, f.bold);
      this.registered.add(face).add(`${face}-Bold`);
    }
    return name;
  }

  private use(text: string): Pdf {
    return this.doc.font(this.face(text)).fontSize(this.size);
  }

  /** `x` of a box of `width` as drawn: mirrored across the page in a right-to-left document. */
  x(x: number, width: number): number {
    return this.rtl ? this.doc.page.width - x - width : x;
  }

  private align(align: 'left' | 'right' | undefined): 'left' | 'right' {
    const a = align ?? 'left';
    return this.rtl ? (a === 'left' ? 'right' : 'left') : a;
  }

  /** Lines of right-to-left `text` within `width`, broken between words in reading order. */
  private rtlLines(text: string, width: number): string[] {
    const out: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      const next = line === '' ? word : `${line} ${word}`;
      if (line !== '' && this.doc.widthOfString(plain(next)) > width) {
        out.push(line);
        line = word;
      } else line = next;
    }
    if (line !== '') out.push(line);
    return out;
  }

  /** The height `text` takes in a box of `width`, in the current style. */
  height(text: string, width: number): number {
    this.use(text);
    if (this.rtl && hasRtl(text)) return this.rtlLines(text, width).length * this.doc.currentLineHeight(true);
    return this.doc.heightOfString(plain(text), { width });
  }

  /** Writes `text` in a box at (`x`, `y`) of `place.width` (x as in a left-to-right page); doc.y is then below it. */
  text(text: string, x: number, y: number, place: Place): void {
    const doc = this.use(text);
    const bx = this.x(x, place.width);
    const align = this.align(place.align);
    const link = place.link === null || place.link === undefined ? {} : { link: place.link, underline: true };
    if (!(this.rtl && hasRtl(text))) {
      doc.text(plain(text), bx, y, { width: place.width, align, ...link });
      return;
    }
    const space = doc.widthOfString(' ');
    const lineHeight = doc.currentLineHeight(true);
    let top = y;
    for (const line of this.rtlLines(text, place.width)) {
      const words = visualWords(line);
      const width = (runs: string[]) => runs.reduce((a, r) => a + doc.widthOfString(r), 0);
      const total = words.reduce((a, w) => a + width(w), 0) + space * Math.max(0, words.length - 1);
      let cx = align === 'right' ? bx + place.width - total : bx;
      for (const runs of words) {
        for (const run of runs) {
          doc.text(run, cx, top, { lineBreak: false, ...link });
          cx += doc.widthOfString(run);
        }
        cx += space;
      }
      top += lineHeight;
    }
    doc.x = bx;
    doc.y = top;
  }
}
