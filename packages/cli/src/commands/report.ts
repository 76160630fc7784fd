import type { ReportKind } from '@hostpay/client';
import { type Command, Option } from 'commander';
import type { AdminBackend } from '../admin/backend.js';
import { withBackend } from '../admin/open-backend.js';
import { printAdmin } from '../admin/print.js';
import { OPERATOR_REPORT_KINDS, type OperatorReportKind, type Reconciliation } from '../admin/reports.js';
import { withClient, merchantCommand, type MerchantFlags } from '../merchant-command.js';
import type { Io } from '../output.js';
import { renderTable } from '../table.js';

const KINDS = ['checkouts', 'payments', 'payouts', 'ledger', 'fees'] as const;

interface ReportFlags extends MerchantFlags {
  from: string;
  to: string;
  format: 'csv' | 'ndjson';
  operator?: boolean;
  adminUrl?: string;
  dataDir?: string;
}

/**
 * `hostpay report KIND --from --to [--format]`: a report file to stdout, streamed. A merchant's
 * (GET /api/v1/cp/reports/{kind}, the API key's credentials) unless an operator option is given
 * (--operator, --admin-url or --data-dir): then every merchant's, or --merchant's, through the
 * admin API (GET /admin/v1/reports/{kind}, a last column merchantId). `report reconciliation` is
 * always the operator's (GET /admin/v1/reports/reconciliation).
 */
export function registerReport(program: Command, io: Io): void {
  merchantCommand(
    program
      .command('report')
      .description(
        'write a report (checkouts, payments, payouts, ledger, fees) to stdout as CSV or NDJSON; operators: every merchant’s, or `report reconciliation`',
      )
      .argument('<kind>', `one of ${KINDS.join(', ')}, or reconciliation (operator)`)
      .requiredOption('--from <time>', 'start (inclusive), RFC 3339 with an offset, e.g. 2027-03-01T00:00:00Z')
      .requiredOption('--to <time>', 'end (exclusive), at most 366 days after --from; a time after now reads as now')
      .addOption(new Option('--format <format>', 'csv (RFC 4180) or ndjson').choices(['csv', 'ndjson']).default('csv'))
      .option(
        '--operator',
        'as the operator, through the admin API ($HOSTPAY_ADMIN_URL and $HOSTPAY_ADMIN_TOKEN, else the local store): every merchant’s rows, or --merchant’s',
      )
      .addOption(
        new Option(
          '--admin-url <url>',
          "as the operator, on this server's admin API (token from $HOSTPAY_ADMIN_TOKEN)",
        ).conflicts('dataDir'),
      )
      .option('--data-dir <dir>', 'as the operator, on the local store and master key of this data dir'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Columns: docs/reports.md. A merchant report needs reports:read and the kind’s read scope.',
        '  hostpay report ledger --from 2027-03-01T00:00:00Z --to 2027-04-01T00:00:00Z > ledger.csv',
        'Operators (a last column merchantId; --merchant narrows to one):',
        '  hostpay report payouts --operator --from 2027-03-01T00:00:00Z --to 2027-04-01T00:00:00Z > payouts.csv',
        '  hostpay report reconciliation --from 2027-03-01T00:00:00Z --to 2027-03-08T00:00:00Z [--json]',
      ].join('\n'),
    )
    .action(async (kind: string, opts: ReportFlags) => {
      if (kind === 'reconciliation') {
        const result = await withBackend(io, opts, (b) => b.reports.reconciliation({ from: opts.from, to: opts.to }));
        const doc = withCounts(result);
        printAdmin(io, opts.json, doc, () => reconciliationText(doc));
        return;
      }
      if (!(KINDS as readonly string[]).includes(kind))
        throw new Error(`report kind must be one of ${KINDS.join(', ')}, or reconciliation`);
      if (opts.operator === true || opts.adminUrl !== undefined || opts.dataDir !== undefined) {
        await withBackend(io, opts, (b) => operatorDownload(io, b, kind as OperatorReportKind, opts));
        return;
      }
      await withClient(io, opts, async (c) => {
        const params = { from: opts.from, to: opts.to, format: opts.format, merchantId: opts.merchant };
        for await (const text of c.reportText(kind as ReportKind, params)) io.stdout(text);
      });
    });
}

async function operatorDownload(io: Io, b: AdminBackend, kind: OperatorReportKind, opts: ReportFlags): Promise<void> {
  if (!(OPERATOR_REPORT_KINDS as readonly string[]).includes(kind)) throw new Error(`unknown report kind ${kind}`);
  const q = { from: opts.from, to: opts.to, format: opts.format, merchantId: opts.merchant };
  for await (const text of b.reports.download(kind, q)) io.stdout(text);
}

/** Counts as numbers (the admin backend carries every wire number as exact text). */
function withCounts(r: Reconciliation): Reconciliation {
  const figures = (f: Reconciliation['days'][number]['seen']) => ({ ...f, count: Number(f.count) });
  return {
    ...r,
    days: r.days.map((d) => ({
      ...d,
      seen: figures(d.seen),
      credited: figures(d.credited),
      payoutsCompleted: figures(d.payoutsCompleted),
    })),
  };
}

const figuresText = (f: Reconciliation['days'][number]['seen']) => {
  const sums = Object.entries(f.amounts).map(([asset, amount]) => `${amount} ${asset}`);
  return sums.length === 0 ? String(f.count) : `${f.count} (${sums.join(', ')})`;
};

/** Per chain and day, then every difference with its reason. */
export function reconciliationText(r: Reconciliation): string {
  if (r.days.length === 0) return `nothing seen, credited or paid out from ${r.from} to ${r.to}`;
  const days = renderTable(
    [
      { header: 'CHAIN' },
      { header: 'DAY' },
      { header: 'SEEN' },
      { header: 'CREDITED' },
      { header: 'PAYOUTS COMPLETED' },
      { header: 'DIFFERENCES', align: 'decimal' },
    ],
    r.days.map((d) => [
      d.chain,
      d.day,
      figuresText(d.seen),
      figuresText(d.credited),
      figuresText(d.payoutsCompleted),
      String(d.differences.length),
    ]),
  );
  const diffs = r.days.flatMap((d) => d.differences.map((x) => ({ chain: d.chain, day: d.day, ...x })));
  if (diffs.length === 0) return `${days}\n\nno differences`;
  const list = renderTable(
    [
      { header: 'CHAIN' },
      { header: 'DAY' },
      { header: 'REASON' },
      { header: 'OF' },
      { header: 'ID' },
      { header: 'TX' },
      { header: 'AMOUNT', align: 'decimal' },
      { header: 'ASSET' },
      { header: 'DETAIL' },
    ],
    diffs.map((x) => [
      x.chain,
      x.day,
      x.reason,
      x.kind === 'payout' ? 'payout' : x.checkoutId === null ? 'transfer' : 'checkout',
      x.payoutId ?? x.checkoutId ?? x.transferId ?? '-',
      x.txHash ?? '-',
      x.amount,
      x.asset,
      x.detail ?? '-',
    ]),
  );
  return `${days}\n\n${list}`;
}
