import {
  jsonDecimal,
  REPORT_COLUMNS,
  REPORT_DECIMAL_COLUMNS,
  REPORT_TIME_COLUMNS,
  writeExactJson,
  type ReportKind,
  type ReportRow,
} from '@hostpay/protocol';
import { stringify } from 'csv-stringify/sync';

const DECIMAL_COLUMNS: ReadonlySet<string> = new Set(REPORT_DECIMAL_COLUMNS);
/** Exact decimals and UTC ISO times are written as they are: never neutralised. */
const VERBATIM_COLUMNS: ReadonlySet<string> = new Set([...REPORT_DECIMAL_COLUMNS, ...REPORT_TIME_COLUMNS]);

/**
 * OWASP CSV injection: a text cell a spreadsheet would read as a formula (or whose leading tab or
 * CR a spreadsheet drops before reading one) gets a leading `'`. The full-width forms count too:
 * some spreadsheets fold them to their ASCII twins.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function csvCell(verbatim: boolean, value: ReportRow[string] | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  return verbatim ? value : neutralise(value);
}

/** A cell RFC 4180 writes as it is: no delimiter, quote, CR or LF. */
const PLAIN = /^[^,"\r\n]*$/;
const CSV_OPTIONS = { record_delimiter: '\r\n', eof: true } as const;

/** Per kind: its columns and whether each is written verbatim, worked out once. */
const CSV_LAYOUT = new Map<ReportKind, { columns: readonly string[]; verbatim: boolean[] }>();
function layout(kind: ReportKind) {
  let l = CSV_LAYOUT.get(kind);
  if (l === undefined) {
    const columns = REPORT_COLUMNS[kind];
    l = { columns, verbatim: columns.map((c) => VERBATIM_COLUMNS.has(c)) };
    CSV_LAYOUT.set(kind, l);
  }
  return l;
}

/**
 * Rows as RFC 4180 CSV (CRLF, a header row when `header`), a page as one string. A record with a
 * cell that needs quoting is written by csv-stringify; one without is its cells joined by commas,
 * which is byte for byte what csv-stringify writes for it (a test compares both), at a tenth of
 * the cost: calling the library for every record held exports to ~90,000 rows/s (docs/reports.md).
 */
export function csvChunk(
  kind: ReportKind,
  rows: readonly ReportRow[],
  header: boolean,
  allColumns?: readonly string[],
): string {
  const base = layout(kind);
  // An operator's file has a column more at the end (merchantId): laid out per page, which is cheap.
  const columns = allColumns ?? base.columns;
  const verbatim = allColumns === undefined ? base.verbatim : allColumns.map((c) => VERBATIM_COLUMNS.has(c));
  const n = columns.length;
  let out = header ? `${columns.join(',')}\r\n` : '';
  const cells: string[] = new Array<string>(n);
  for (const row of rows) {
    let line = '';
    let plain = true;
    for (let i = 0; i < n; i++) {
      const cell = csvCell(verbatim[i]!, row[columns[i]!]);
      cells[i] = cell;
      if (plain && !PLAIN.test(cell)) plain = false;
      line = i === 0 ? cell : `${line},${cell}`;
    }
    out += plain ? `${line}\r\n` : stringify([cells], CSV_OPTIONS);
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
