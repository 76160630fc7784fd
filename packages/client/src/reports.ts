import type { AmountMode } from './decimals.js';
import { HostpayError } from './errors.js';
import type { Transport } from './transport.js';
import type { CallOptions } from './types.js';

/** The report kinds of GET /api/v1/cp/reports/{kind} (docs/reports.md lists each one's columns). */
export type ReportKind = 'checkouts' | 'payments' | 'payouts' | 'ledger' | 'fees';

export interface ReportParams extends CallOptions {
  /** Start (inclusive), RFC 3339 with an offset, e.g. 2027-03-01T00:00:00Z. */
  from: string;
  /** End (exclusive); at most 366 days after `from`. */
  to: string;
  /** Act for this sub-merchant (platform keys only). */
  merchantId?: string | undefined;
}

/** One report row: the kind's columns in order; decimals exact strings (or numbers with `amounts: 'number'`), times ISO text, empty cells null. */
export type ReportRow = Record<string, string | number | boolean | null>;

const REPORT_PATH = '/api/v1/cp/reports/';
/**
 * The columns holding exact decimals (protocol REPORT_DECIMAL_COLUMNS), written out here as
 * wire.ts explains: test/wire-types.test.ts holds the two lists equal.
 */
export const REPORT_DECIMAL_COLUMNS = [
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
] as const;
// The server writes report rows with plain member names (no \u escapes): a decimal column's name,
// the colon, and the number literal after it, which is quoted so JSON.parse keeps it exact.
const DECIMAL_MEMBER = new RegExp(`("(?:${REPORT_DECIMAL_COLUMNS.join('|')})":)(-?\\d+(?:\\.\\d+)?)`, 'g');

function parseRow(line: string, mode: AmountMode): ReportRow {
  return JSON.parse(mode === 'number' ? line : line.replace(DECIMAL_MEMBER, '$1"$2"')) as ReportRow;
}

/**
 * The rows of a report, oldest first, read as the server streams them (NDJSON): an async
 * iterator that holds one network chunk at a time, whatever the range. Breaking out of the loop
 * closes the connection, which stops the server's query.
 */
export async function* reportRows(
  transport: Transport,
  mode: AmountMode,
  kind: ReportKind,
  params: ReportParams,
): AsyncGenerator<ReportRow> {
  let buffered = '';
  for await (const text of reportText(transport, kind, { ...params, format: 'ndjson' })) {
    buffered += text;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line !== '') yield parseRow(line, mode);
      newline = buffered.indexOf('\n');
    }
  }
  if (buffered !== '')
    throw new HostpayError({
      status: 200,
      code: 'INVALID_RESPONSE',
      message: 'the report ended in the middle of a row',
    });
}

/**
 * A report file's text as the server streams it (CSV by default, or NDJSON), chunk by chunk:
 * what `hostpay report` writes to stdout. Breaking out of the loop closes the connection.
 */
export async function* reportText(
  transport: Transport,
  kind: ReportKind,
  params: ReportParams & { format?: 'csv' | 'ndjson' | undefined },
): AsyncGenerator<string> {
  const query = { from: params.from, to: params.to, format: params.format ?? 'csv', merchantId: params.merchantId };
  const path = `${REPORT_PATH}${encodeURIComponent(kind)}`;
  const res = (await transport.call({ method: 'GET', path, query, auth: 'bearer', stream: true }, params)) as Response;
  if (res.body === null)
    throw new HostpayError({ status: res.status, code: 'INVALID_RESPONSE', message: 'a report answer without a body' });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((cause: unknown) => {
        throw new HostpayError({
          status: res.status,
          code: 'NETWORK_ERROR',
          message: 'the connection broke in the middle of the report: the file is incomplete',
          cause,
        });
      });
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (text !== '') yield text;
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
