/**
 * What a document (a receipt, an invoice) says, in the order it is laid out. The renderer
 * (`render.ts`) decides how it looks; callers give only text, already formatted (amounts as
 * exact decimal text, dates as words): the PDF never computes a figure.
 */
export interface DocumentSpec {
  /** The big heading: `Receipt`, `Invoice`. Also the PDF's Title. */
  title: string;
  /**
   * The document's language (a code of i18n/languages.ts; default `en`): the PDF's Lang, its
   * direction (Arabic right to left) and the font of Chinese and Japanese text.
   */
  lang?: string;
  /** A line above everything in a box, e.g. `Sandbox: no real money was moved.` */
  banner?: string | null;
  seller: DocumentSeller;
  /** Label/value pairs beside the title: `Receipt number`, `Date paid`, `Due`. */
  facts?: DocumentFact[];
  /** The body, top to bottom. */
  blocks: DocumentBlock[];
  /** Small lines at the bottom of the last page. */
  footer?: string[];
  /** The PDF's CreationDate (a given time, so the same input renders the same PDF). */
  createdAt: Date;
  /** The PDF's Author and Creator; default `hostpay`. */
  producer?: string;
}

export interface DocumentSeller {
  /** The merchant's display name (any script the embedded fonts cover: Latin, Greek, Cyrillic, Arabic, Chinese, Japanese, …). */
  name: string;
  /**
   * The merchant's logo as stored: a `data:image/png` or `data:image/jpeg` base64 URL is embedded;
   * anything else (an https URL, webp, svg) is left out. Never fetched.
   */
  logo?: string | null;
  /** Legal name, address lines, tax id, support email: one line each, empty ones dropped. */
  details?: (string | null | undefined)[];
}

export interface DocumentFact {
  label: string;
  value: string;
}

export interface DocumentColumn {
  label: string;
  /** Default `left`; amounts are `right`. */
  align?: 'left' | 'right';
  /** Share of the table's width (the shares are normalised); default 1. */
  width?: number;
}

/** A cell: plain text, or text linked to an https URL. */
export type DocumentCell = string | { text: string; url: string | null };

export type DocumentBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'table'; columns: DocumentColumn[]; rows: DocumentCell[][] }
  | { kind: 'totals'; rows: { label: string; value: string; strong?: boolean }[] }
  | { kind: 'text'; lines: string[] }
  | { kind: 'links'; links: { label: string; url: string }[] };
