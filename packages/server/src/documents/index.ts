/**
 * Documents (issue 46): PDFs of receipts and invoices, made by pdfkit with an embedded font,
 * never fetching anything. A kernel library: no table, no feature; features build a
 * `DocumentSpec` and call `renderPdf`.
 */
export { ltrText } from './bidi.js';
export { cjkFonts, documentFonts } from './fonts.js';
export { linkable, logoBytes } from './logo.js';
export { renderPdf } from './render.js';
export type {
  DocumentBlock,
  DocumentCell,
  DocumentColumn,
  DocumentFact,
  DocumentSeller,
  DocumentSpec,
} from './types.js';
