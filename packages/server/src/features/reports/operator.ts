import { jsonDecimal, REPORT_STREAMS_PER_MERCHANT, type ReportFormat, type ReportKind } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { fileTime, readRange } from './range.js';
import { reconcile } from './reconciliation.js';
import type { Difference, Figures } from './reconciliation-types.js';
import type { ReportDownload } from './service.js';
import { reportStream, streamSlots } from './stream.js';

export interface OperatorReportQuery {
  from?: string | undefined;
  to?: string | undefined;
  format?: ReportFormat | undefined;
  merchantId?: string | undefined;
}

const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
};

const exactFigures = (f: Figures) => ({
  count: f.count,
  amounts: Object.fromEntries(Object.entries(f.amounts).map(([k, v]) => [k, jsonDecimal(v)])),
});

/** The operator's reports (admin API, console, CLI): every merchant's exports and the reconciliation. */
export function operatorReports(store: Pick<Store, 'db' | 'dialect' | 'arrayRows'>, now: () => number) {
  // Operator downloads share one pool per instance, apart from the merchants' own.
  const slots = streamSlots(REPORT_STREAMS_PER_MERCHANT);
  return {
    /** Every merchant's rows (or one merchant's), with a last column `merchantId`; 404 for an unknown merchant. */
    async downloadReport(kind: ReportKind, query: OperatorReportQuery, operator: string): Promise<ReportDownload> {
      const range = readRange(query.from, query.to, now());
      const format = query.format ?? 'csv';
      const merchantId = query.merchantId ?? null;
      if (merchantId !== null) {
        const found = await store.db
          .selectFrom('merchants')
          .select('id')
          .where('id', '=', merchantId)
          .executeTakeFirst();
        if (found === undefined) throw new HostpayError('NOT_FOUND', `merchant ${merchantId} not found`);
      }
      const release = slots.take(`operator:${operator}`);
      const stream = await reportStream(store, { merchantId, kind, format, range, merchantColumn: true }, release);
      const ext = format === 'csv' ? 'csv' : 'ndjson';
      const who = merchantId === null ? 'all' : merchantId;
      return {
        filename: `hostpay-${kind}-${who}-${fileTime(range.from)}-${fileTime(range.to)}.${ext}`,
        contentType: CONTENT_TYPES[format],
        stream,
      };
    },

    /** Per chain and UTC day, what the chains showed against the books; amounts as exact JSON numbers. */
    async reconciliation(query: { from?: string | undefined; to?: string | undefined }) {
      const range = readRange(query.from, query.to, now());
      const result = await reconcile(store, range);
      return {
        ...result,
        days: result.days.map((d) => ({
          ...d,
          seen: exactFigures(d.seen),
          credited: exactFigures(d.credited),
          payoutsCompleted: exactFigures(d.payoutsCompleted),
          differences: d.differences.map((x: Difference) => ({ ...x, amount: jsonDecimal(x.amount) })),
        })),
      };
    },
  };
}

export type OperatorReports = ReturnType<typeof operatorReports>;
