import { jsonDecimal, REPORT_COLUMNS, writeExactJson, type ReportKind, type ReportRow } from '@hostpay/protocol';
import { stringify } from 'csv-stringify/sync';

/** Columns holding exact decimals: written as they are stored (CSV) or as exact JSON numbers (NDJSON), never neutralised. */
const DECIMAL_COLUMNS = new Set([
  'amount',
  'received',
  'rate',
  'fee',
  'net',
  'valueInCurrency',
  'networkFee',
  'total',
  'balanceAfter',
  'freezeAmountAfter',
  'serviceFee',
  'onChainFee',
  'feeInAsset',
]);
/** UTC ISO times: never neutralised either. */
const TIME_COLUMNS = new Set(['createdAt', 'settledAt', 'detectedAt', 'completedAt', 'postedAt']);

/**
 * OWASP CSV injection: a text cell a spreadsheet would read as a formula (or whose leading tab or
 * CR a spreadsheet drops before reading one) gets a leading `'`. The full-width forms count too:
 * some spreadsheets fold them to their ASCII twins.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function csvCell(column: string, value: ReportRow[string]): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (DECIMAL_COLUMNS.has(column) || TIME_COLUMNS.has(column)) return value;
  return neutralise(value);
}

/** A cell RFC 4180 writes as it is: no delimiter, quote, CR or LF. */
const PLAIN = /^[^,"\r\n]*$/;
const CSV_OPTIONS = { record_delimiter: '\r\n', eof: true } as const;

/**
 * Rows as RFC 4180 CSV (CRLF, a header row when `header`). A record with a cell that needs quoting
 * is written by csv-stringify; one without is its cells joined by commas, which is byte for byte
 * what csv-stringify writes for it (a test compares both), at a tenth of the cost: calling the
 * library for every record held exports to ~90,000 rows/s (docs/reports.md).
 */
export function csvChunk(
  kind: ReportKind,
  rows: readonly ReportRow[],
  header: boolean,
  columns: readonly string[] = REPORT_COLUMNS[kind],
): string {
  let out = header ? `${columns.join(',')}\r\n` : '';
  for (const row of rows) {
    const cells = columns.map((c) => csvCell(c, row[c] ?? null));
    out += cells.every((cell) => PLAIN.test(cell)) ? `${cells.join(',')}\r\n` : stringify([cells], CSV_OPTIONS);
  }
  return out;
}

/** Rows as NDJSON: one object per line, the columns in their published order, decimals as exact JSON numbers. */
export function ndjsonChunk(
  kind: ReportKind,
  rows: readonly ReportRow[],
  columns: readonly string[] = REPORT_COLUMNS[kind],
): string {
  let out = '';
  for (const row of rows) {
    const object: Record<string, unknown> = {};
    for (const c of columns) {
      const v = row[c] ?? null;
      object[c] = typeof v === 'string' && DECIMAL_COLUMNS.has(c) ? jsonDecimal(v) : v;
    }
    out += `${writeExactJson(object)}\n`;
  }
  return out;
}
