import type { ReportKind } from '@hostpay/client';
import { type Command, Option } from 'commander';
import { withClient, merchantCommand, type MerchantFlags } from '../merchant-command.js';
import type { Io } from '../output.js';

const KINDS = ['checkouts', 'payments', 'payouts', 'ledger', 'fees'] as const;

interface ReportFlags extends MerchantFlags {
  from: string;
  to: string;
  format: 'csv' | 'ndjson';
}

/** `hostpay report KIND --from --to [--format]`: a report file to stdout, streamed (GET /api/v1/cp/reports/{kind}). */
export function registerReport(program: Command, io: Io): void {
  merchantCommand(
    program
      .command('report')
      .description('write a report (checkouts, payments, payouts, ledger, fees) to stdout as CSV or NDJSON')
      .argument('<kind>', `one of ${KINDS.join(', ')}`)
      .requiredOption('--from <time>', 'start (inclusive), RFC 3339 with an offset, e.g. 2027-03-01T00:00:00Z')
      .requiredOption('--to <time>', 'end (exclusive), at most 366 days after --from; a time after now reads as now')
      .addOption(new Option('--format <format>', 'csv (RFC 4180) or ndjson').choices(['csv', 'ndjson']).default('csv')),
  )
    .addHelpText(
      'after',
      '\nColumns: docs/reports.md. Needs reports:read and the kind’s read scope.\n  hostpay report ledger --from 2027-03-01T00:00:00Z --to 2027-04-01T00:00:00Z > ledger.csv',
    )
    .action(async (kind: string, opts: ReportFlags) => {
      if (!(KINDS as readonly string[]).includes(kind))
        throw new Error(`report kind must be one of ${KINDS.join(', ')}`);
      await withClient(io, opts, async (c) => {
        const params = { from: opts.from, to: opts.to, format: opts.format, merchantId: opts.merchant };
        for await (const text of c.reportText(kind as ReportKind, params)) io.stdout(text);
      });
    });
}
