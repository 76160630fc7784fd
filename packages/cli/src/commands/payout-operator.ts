import { Option, type Command } from 'commander';
import type { AdminPayout } from '../admin/backend.js';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { printAdmin, printList, table } from '../admin/print.js';
import { registerReviewCommands, type ReviewListOptions } from '../admin/review-commands.js';
import type { Io } from '../output.js';
import { PAYOUT_COLUMNS, describeDestination, describePayout, payoutRow } from '../payout-view.js';

interface QueueOptions extends ReviewListOptions {
  chain?: string;
}

const merchantColumns = [{ header: 'MERCHANT' }, ...PAYOUT_COLUMNS];
const merchantRow = (p: AdminPayout): string[] => [p.merchantId, ...payoutRow(p)];

/**
 * The operators' side of `hostpay payout`, through the admin API (or the local store through the
 * same API): every merchant's payouts, the approval queue, and the manual sender's reports.
 */
export function registerPayoutOperator(payout: Command, destination: Command, io: Io): void {
  const review = registerReviewCommands<AdminPayout, QueueOptions>(payout, io, {
    plural: 'payouts',
    queueStatus: 'pending_approval',
    description: 'operators: payouts of every merchant, those waiting for approval by default',
    listDescription: 'operators: payouts waiting for approval (pending_approval); --all or --status for others',
    getDescription: 'operators: one payout of any merchant',
    idArgument: ['<payout-id>', 'e.g. po_...'],
    listOptions: (cmd) => cmd.option('--chain <symbol>', 'only payouts on this chain'),
    list: (b, q, opts) => b.payouts.list({ ...q, chain: opts.chain }),
    get: (b, id) => b.payouts.get(id),
    table: { columns: merchantColumns, row: merchantRow, empty: 'no payouts' },
    emptyQueue: 'no payouts wait for approval',
    describe: describePayout,
  });

  withWriteOptions(
    review
      .command('cancel')
      .description('operators: cancel a payout still pending_approval or approved (its total is unfrozen)')
      .argument('<payout-id>', 'e.g. po_...'),
  ).action(async (id: string, opts: WriteOptions) => {
    const p = await withBackend(io, opts, (b) => b.payouts.cancel(id, opts));
    printAdmin(io, opts.json, p, () => `canceled payout ${p.id}: ${p.total} ${p.asset} unfrozen`);
  });

  const write = (name: string, description: string) =>
    withWriteOptions(payout.command(name).description(description).argument('<payout-id>', 'e.g. po_...'));

  write(
    'approve',
    "operators: approve a payout waiting for approval; the chain's sender (or you, manual) sends it",
  ).action(async (id: string, opts: WriteOptions) => {
    const p = await withBackend(io, opts, (b) => b.payouts.approve(id, opts));
    printAdmin(io, opts.json, p, () => `approved payout ${p.id}: ${p.amount} ${p.asset} to ${p.destination}`);
  });

  write('reject', 'operators: reject a payout waiting for approval; its total is unfrozen (final)')
    .requiredOption('--reason <text>', 'why, kept in its timeline and shown to the merchant')
    .action(async (id: string, opts: WriteOptions & { reason: string }) => {
      const p = await withBackend(io, opts, (b) => b.payouts.reject(id, opts.reason, opts));
      printAdmin(io, opts.json, p, () => `rejected payout ${p.id} (${opts.reason}): ${p.total} ${p.asset} unfrozen`);
    });

  write('sent', 'operators (manual sender): report the transaction that paid an approved payout')
    .requiredOption('--tx-hash <hash>', 'the transaction hash')
    .action(async (id: string, opts: WriteOptions & { txHash: string }) => {
      const p = await withBackend(io, opts, (b) => b.payouts.sent(id, opts.txHash, opts));
      printAdmin(io, opts.json, p, () => `payout ${p.id} is ${p.status}: transaction ${p.txHash ?? opts.txHash}`);
    });

  write('complete', 'operators: confirm a sent payout arrived; its total is debited (final)').action(
    async (id: string, opts: WriteOptions) => {
      const p = await withBackend(io, opts, (b) => b.payouts.complete(id, opts));
      printAdmin(io, opts.json, p, () => `completed payout ${p.id}: ${p.total} ${p.asset} debited`);
    },
  );

  write('fail', 'operators: mark a sent payout failed; its total is unfrozen (final)')
    .requiredOption('--reason <text>', 'why, kept in its timeline and shown to the merchant')
    .action(async (id: string, opts: WriteOptions & { reason: string }) => {
      const p = await withBackend(io, opts, (b) => b.payouts.fail(id, opts.reason, opts));
      printAdmin(io, opts.json, p, () => `payout ${p.id} failed (${opts.reason}): ${p.total} ${p.asset} unfrozen`);
    });

  withAdminOptions(
    payout
      .command('export')
      .description('operators (manual sender): the approved payouts to pay, oldest first, as CSV or JSON rows')
      .addOption(new Option('--format <format>', 'csv (default) or json').choices(['csv', 'json']).default('csv'))
      .option('--chain <symbol>', 'only payouts on this chain'),
  )
    .addHelpText(
      'after',
      "\nCSV goes to stdout as it is (header line first): hostpay payout export > payouts.csv. Pay each row from your own\nwallet or custodian, then report it: hostpay payout sent ID --tx-hash HASH. --json: the API's {format, count, items, csv}.",
    )
    .action(async (opts: AdminOptions & { format: 'csv' | 'json'; chain?: string }) => {
      const doc = await withBackend(io, opts, (b) => b.payouts.export({ format: opts.format, chain: opts.chain }));
      if (opts.json) return printAdmin(io, true, doc, () => '');
      if (opts.format === 'csv') return io.stdout(ensureNewline(doc.csv ?? ''));
      printAdmin(io, false, doc, () =>
        table(doc.items, {
          columns: EXPORT_COLUMNS,
          row: (r) => [r.id, r.merchantId, r.chain, r.asset, r.amount, r.networkFee, r.destination, r.reference ?? '-'],
          empty: 'no approved payouts to send',
        }),
      );
    });

  registerPayoutFees(payout, io);

  withWriteOptions(
    destination
      .command('activate')
      .description("operators: end a destination's cooling-off now, so payouts can use it")
      .argument('<destination-id>', 'e.g. dst_...'),
  ).action(async (id: string, opts: WriteOptions) => {
    const d = await withBackend(io, opts, (b) => b.payouts.activateDestination(id, opts));
    printAdmin(io, opts.json, d, () => `activated destination ${d.id}\n\n${describeDestination(d)}`);
  });
}

/** The operator's network fee estimates: `hostpay payout fee set|list` (PUT/GET /admin/v1/payout-fees). */
function registerPayoutFees(payout: Command, io: Io): void {
  const fee = payout
    .command('fee')
    .description(
      'operators: the network fee estimate frozen with each payout (total = amount + fee), per chain and asset',
    );
  withWriteOptions(
    fee
      .command('set')
      .description('operators: set the network fee estimate of payouts of ASSET on CHAIN, in ASSET (audited)')
      .argument('<chain>', 'e.g. TRON')
      .argument('<asset>', 'e.g. USDT')
      .argument('<amount>', 'the estimate in the asset, an exact decimal, e.g. 1.1 (0: no estimate)'),
  )
    .addHelpText(
      'after',
      '\nPayouts requested afterwards freeze amount + this fee; the manual sender may report the actual fee when it\nreports the transaction. Without an estimate a chain and asset estimate 0.',
    )
    .action(async (chain: string, asset: string, amount: string, opts: WriteOptions) => {
      const f = await withBackend(io, opts, (b) => b.payouts.setFee({ chain, asset, networkFee: amount }, opts));
      printAdmin(
        io,
        opts.json,
        f,
        () => `payouts of ${f.asset} on ${f.chain} now freeze a network fee of ${f.networkFee} ${f.asset}`,
      );
    });

  withAdminOptions(fee.command('list').description('operators: every network fee estimate set (others are 0)')).action(
    async (opts: AdminOptions) => {
      const items = await withBackend(io, opts, (b) => b.payouts.listFees());
      printList(io, opts.json, items, {
        columns: [
          { header: 'CHAIN' },
          { header: 'ASSET' },
          { header: 'NETWORK FEE', align: 'decimal' },
          { header: 'UPDATED' },
        ],
        row: (f) => [f.chain, f.asset, f.networkFee, f.updatedAt],
        empty: 'no network fee estimates: every payout estimates 0',
      });
    },
  );
}

const EXPORT_COLUMNS = [
  { header: 'ID' },
  { header: 'MERCHANT' },
  { header: 'CHAIN' },
  { header: 'ASSET' },
  { header: 'AMOUNT', align: 'decimal' as const },
  { header: 'FEE', align: 'decimal' as const },
  { header: 'DESTINATION' },
  { header: 'REFERENCE' },
];

const ensureNewline = (text: string): string => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
