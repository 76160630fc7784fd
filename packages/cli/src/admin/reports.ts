import { CommandError } from '../output.js';
import { ADMIN_PREFIX, unwrap, type AdminHttpOptions, type Query } from './http.js';

/** The operator's report kinds (GET /admin/v1/reports/{kind}). */
export const OPERATOR_REPORT_KINDS = ['checkouts', 'payments', 'payouts', 'ledger', 'fees'] as const;
export type OperatorReportKind = (typeof OPERATOR_REPORT_KINDS)[number];

export interface OperatorReportQuery {
  from: string;
  to: string;
  format?: 'csv' | 'ndjson' | undefined;
  merchantId?: string | undefined;
}

export type { Reconciliation, ReconciliationDifference, ReconciliationFigures } from '@hostpay/protocol';

/**
 * A report file of the admin API, as it streams: the text of each chunk in order. An error
 * answered before the first byte is the usual envelope (thrown as its CommandError); one after it
 * ends the connection, which fails the iteration (a truncated file is never taken for a whole one).
 */
export async function* adminDownload(opts: AdminHttpOptions, path: string, query: Query): AsyncGenerator<string> {
  const base = opts.url.replace(/\/+$/, '').replace(/\/admin\/v1$/, '') + ADMIN_PREFIX;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const url = `${base}${path}?${params.toString()}`;
  let response: Response;
  try {
    response = await (opts.fetch ?? fetch)(url, { headers: { authorization: `Bearer ${opts.token}` } });
  } catch (err) {
    throw new CommandError('UNAVAILABLE', `cannot reach ${base}: ${(err as Error).message}; check --admin-url`);
  }
  if (!response.ok || response.body === null) {
    unwrap(response, await response.text(), `GET ${url}`);
    throw new CommandError('UNEXPECTED_RESPONSE', `GET ${url} answered HTTP ${response.status} without a file`);
  }
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
    yield decoder.decode(chunk, { stream: true });
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}
