import { directionOf, isLang } from '../i18n/languages.js';
import { plain } from './bidi.js';
import { linkable, logoBytes } from './logo.js';
import type { DocumentBlock, DocumentCell, DocumentColumn, DocumentSpec } from './types.js';
import { Writer } from './writer.js';

type Pdf = Writer;

const MARGIN = 48;
const INK = '#111111';
const MUTED = '#555555';
const RULE = '#bbbbbb';
const LINK = '#0b57d0';

/**
 * Renders a document as a PDF (A4, its fonts embedded as subsets: fonts.ts) in the spec's
 * language, right to left for Arabic, and returns its bytes.
 * Nothing is fetched: the only inputs are the spec's text and a `data:` logo, and pdfkit is
 * handed bytes (never a path or URL) for fonts and images. pdfkit is loaded on the first
 * document, not at start-up.
 */
export async function renderPdf(spec: DocumentSpec): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const producer = spec.producer ?? 'hostpay';
  const lang = spec.lang ?? 'en';
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: plain(spec.title),
      Author: producer,
      Creator: producer,
      Producer: producer,
      CreationDate: spec.createdAt,
    },
    lang,
    displayTitle: true,
  });
  const doc = new Writer(pdf, lang, isLang(lang) ? directionOf(lang) : 'ltr');
  pdf.fillColor(INK);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  if (spec.banner) banner(doc, spec.banner);
  header(doc, spec);
  for (const block of spec.blocks) drawBlock(doc, block);
  if (spec.footer !== undefined && spec.footer.length > 0) footer(doc, spec.footer);
  pdf.end();
  return done;
}

const contentWidth = (w: Pdf) => w.doc.page.width - 2 * MARGIN;
const bottom = (w: Pdf) => w.doc.page.height - MARGIN;

/** Starts a new page when `height` more points would not fit on this one. */
function room(w: Pdf, height: number): void {
  if (w.doc.y + height > bottom(w)) {
    w.doc.addPage();
    w.doc.y = MARGIN;
  }
}

function banner(w: Pdf, text: string): void {
  const doc = w.doc;
  const width = contentWidth(w);
  w.style(true, 10);
  const h = w.height(text, width - 16) + 12;
  doc.save().rect(MARGIN, doc.y, width, h).fill('#fff3c4').restore();
  doc.fillColor(INK);
  w.text(text, MARGIN + 8, doc.y + 6, { width: width - 16 });
  doc.y = doc.y + 14;
}

/** Seller (logo, name, details) on the left; title and facts on the right (mirrored right to left). */
function header(w: Pdf, spec: DocumentSpec): void {
  const doc = w.doc;
  const top = doc.y;
  const width = contentWidth(w);
  const leftWidth = width * 0.55;
  const rightX = MARGIN + width * 0.58;
  const rightWidth = width * 0.42;
  let y = top;
  const logo = logoBytes(spec.seller.logo);
  if (logo !== null) {
    try {
      doc.image(logo, w.x(MARGIN, 120), y, { fit: [120, 56], ...(w.rtl ? { align: 'right' as const } : {}) });
      y += 64;
    } catch {
      // An image pdfkit cannot read is left out: the document still renders.
    }
  }
  doc.fillColor(INK);
  w.style(true, 14).text(spec.seller.name, MARGIN, y, { width: leftWidth });
  doc.fillColor(MUTED);
  w.style(false, 9);
  for (const line of spec.seller.details ?? []) {
    if (line !== null && line !== undefined && line.trim() !== '') w.text(line, MARGIN, doc.y, { width: leftWidth });
  }
  const leftBottom = doc.y;
  doc.fillColor(INK);
  w.style(true, 22).text(spec.title, rightX, top, { width: rightWidth, align: 'right' });
  doc.moveDown(0.3);
  for (const fact of spec.facts ?? []) {
    doc.fillColor(MUTED);
    w.style(false, 8).text(fact.label, rightX, doc.y, { width: rightWidth, align: 'right' });
    doc.fillColor(INK);
    w.style(true, 10).text(fact.value, rightX, doc.y, { width: rightWidth, align: 'right' });
    doc.moveDown(0.2);
  }
  doc.y = Math.max(leftBottom, doc.y) + 18;
  doc.x = MARGIN;
}

function drawBlock(w: Pdf, block: DocumentBlock): void {
  const doc = w.doc;
  switch (block.kind) {
    case 'heading':
      room(w, 40);
      doc.moveDown(0.4);
      doc.fillColor(INK);
      w.style(true, 11).text(block.text, MARGIN, doc.y, { width: contentWidth(w) });
      doc.moveDown(0.3);
      return;
    case 'table':
      table(w, block.columns, block.rows);
      return;
    case 'totals':
      totals(w, block.rows);
      return;
    case 'text':
      w.style(false, 10);
      doc.fillColor(INK);
      for (const line of block.lines) {
        room(w, 14);
        w.text(line, MARGIN, doc.y, { width: contentWidth(w) });
      }
      doc.moveDown(0.5);
      return;
    case 'links':
      w.style(false, 10);
      for (const link of block.links) {
        room(w, 14);
        const url = linkable(link.url) ? link.url : null;
        doc.fillColor(url === null ? INK : LINK);
        w.text(link.label, MARGIN, doc.y, { width: contentWidth(w), link: url });
      }
      doc.fillColor(INK).moveDown(0.5);
      return;
  }
}

const cellText = (cell: DocumentCell) => (typeof cell === 'string' ? cell : cell.text);
const cellUrl = (cell: DocumentCell) => (typeof cell === 'string' || !linkable(cell.url) ? null : cell.url);

function table(w: Pdf, columns: DocumentColumn[], rows: DocumentCell[][]): void {
  const doc = w.doc;
  const width = contentWidth(w);
  const shares = columns.map((c) => c.width ?? 1);
  const total = shares.reduce((a, b) => a + b, 0);
  const widths = shares.map((s) => (s / total) * width);
  const xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const pad = 4;
  const drawRow = (cells: DocumentCell[], bold: boolean) => {
    w.style(bold, bold ? 8 : 9);
    const heights = cells.map((c, i) => w.height(cellText(c), widths[i]! - 2 * pad));
    const h = Math.max(12, ...heights) + 2 * pad;
    room(w, h);
    const y = doc.y;
    cells.forEach((c, i) => {
      const url = cellUrl(c);
      doc.fillColor(bold ? MUTED : url === null ? INK : LINK);
      w.text(cellText(c), xs[i]! + pad, y + pad, {
        width: widths[i]! - 2 * pad,
        align: columns[i]?.align ?? 'left',
        link: url,
      });
    });
    doc
      .moveTo(MARGIN, y + h)
      .lineTo(MARGIN + width, y + h)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.y = y + h;
  };
  drawRow(
    columns.map((c) => c.label),
    true,
  );
  for (const row of rows) drawRow(row, false);
  doc.x = MARGIN;
  doc.moveDown(0.6);
}

function totals(w: Pdf, rows: { label: string; value: string; strong?: boolean }[]): void {
  const doc = w.doc;
  const width = contentWidth(w);
  const labelX = MARGIN + width * 0.45;
  const labelWidth = width * 0.3;
  const valueX = labelX + labelWidth;
  const valueWidth = width - (valueX - MARGIN);
  for (const row of rows) {
    w.style(row.strong === true, row.strong === true ? 11 : 10);
    const h = Math.max(w.height(row.label, labelWidth), w.height(row.value, valueWidth)) + 4;
    room(w, h);
    const y = doc.y;
    doc.fillColor(row.strong === true ? INK : MUTED);
    w.text(row.label, labelX, y, { width: labelWidth });
    doc.fillColor(INK);
    w.text(row.value, valueX, y, { width: valueWidth, align: 'right' });
    doc.y = y + h;
  }
  doc.x = MARGIN;
  doc.moveDown(0.6);
}

function footer(w: Pdf, lines: string[]): void {
  const doc = w.doc;
  doc.moveDown(1);
  w.style(false, 8);
  doc.fillColor(MUTED);
  for (const line of lines) {
    room(w, 12);
    w.text(line, MARGIN, doc.y, { width: contentWidth(w) });
  }
}
