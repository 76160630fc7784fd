import type { Command } from 'commander';
import type { TransferOutcome } from '../admin/backend.js';
import { withBackend } from '../admin/open-backend.js';
import {
  pageRequest,
  withAdminOptions,
  withPageOptions,
  withWriteOptions,
  type AdminOptions,
  type PageOptions,
  type WriteOptions,
} from '../admin/options.js';
import { orDash, printAdmin, printPage } from '../admin/print.js';
import { integerIn } from '../options.js';
import type { Io } from '../output.js';

interface ReportOptions extends WriteOptions {
  chain: string;
  tx: string;
  index: number;
  to: string;
  asset: string;
  amount: string;
  confirmations: number;
  blockTime?: string;
  blockHash?: string;
}

/**
 * Transfers seen on a chain, as an indexer reports them (POST /admin/v1/transfers), and what
 * operators do with the odd ones: list the unmatched, retract an orphaned one, attach one to a
 * checkout. Each answer names the checkout the transfer moved and the state it is in now.
 */
export function registerTransfer(program: Command, io: Io): void {
  const transfer = program
    .command('transfer')
    .description('operators: report chain transfers, list, retract and attach them');

  withWriteOptions(
    transfer
      .command('report')
      .description(
        'report a transfer seen on a chain; idempotent on chain + tx + index (a repeat may only raise confirmations)',
      ),
  )
    .requiredOption('--chain <symbol>', 'chain symbol, e.g. TRON')
    .requiredOption('--tx <hash>', 'transaction hash')
    .requiredOption(
      '--index <n>',
      'output index (BTC) or log index (tokens); 0 for a native transfer',
      integerIn(0, 2 ** 31 - 1),
    )
    .requiredOption('--to <address>', 'receiving address')
    .requiredOption('--asset <symbol>', 'asset moved, e.g. USDT')
    .requiredOption('--amount <amount>', 'amount moved in the asset, exact decimal (e.g. 99.5)')
    .requiredOption('--confirmations <n>', 'confirmations so far', integerIn(0, 1_000_000_000))
    .option('--block-time <time>', 'block time, ISO 8601: decides whether a payment was on time')
    .option('--block-hash <hash>', 'block hash')
    .action(async (opts: ReportOptions) => {
      const req = {
        chain: opts.chain,
        txHash: opts.tx,
        index: opts.index,
        toAddress: opts.to,
        asset: opts.asset,
        amount: opts.amount,
        confirmations: opts.confirmations,
        blockTime: opts.blockTime,
        blockHash: opts.blockHash,
      };
      const outcome = await withBackend(io, opts, (b) => b.transfers.report(req, opts));
      printAdmin(
        io,
        opts.json,
        outcome,
        () => `${outcome.created === false ? 'already known' : 'recorded'}: ${describeOutcome(outcome)}`,
      );
    });

  withPageOptions(withAdminOptions(transfer.command('list').description('list reported transfers, oldest first')))
    .option('--unmatched', 'only transfers to no known address')
    .option('--chain <symbol>', 'only this chain')
    .option('--checkout <id>', "only this checkout's transfers")
    .action(async (opts: AdminOptions & PageOptions & { unmatched?: boolean; chain?: string; checkout?: string }) => {
      const page = await withBackend(io, opts, (b) =>
        b.transfers.list({
          ...pageRequest(opts),
          matched: opts.unmatched ? false : undefined,
          chain: opts.chain,
          checkoutId: opts.checkout,
        }),
      );
      printPage(io, opts.json, page, {
        columns: [
          { header: 'ID' },
          { header: 'CHAIN' },
          { header: 'ASSET' },
          { header: 'AMOUNT', align: 'decimal' },
          { header: 'CONF' },
          { header: 'TO' },
          { header: 'CHECKOUT' },
          { header: 'EXCEPTION' },
        ],
        row: (t) => [
          t.id,
          t.chain,
          t.asset,
          t.amount,
          String(t.confirmations),
          t.toAddress,
          orDash(t.checkoutId),
          t.retracted ? 'retracted' : orDash(t.exception),
        ],
        empty: opts.unmatched ? 'no unmatched transfers' : 'no transfers reported yet: hostpay transfer report --help',
      });
    });

  withWriteOptions(
    transfer
      .command('retract')
      .description('retract a transfer orphaned by a chain reorganisation: it stops counting')
      .argument('<transfer-id>', 'e.g. trf_...'),
  ).action(async (id: string, opts: WriteOptions) => {
    const outcome = await withBackend(io, opts, (b) => b.transfers.retract(id, opts));
    printAdmin(io, opts.json, outcome, () => `retracted: ${describeOutcome(outcome)}`);
  });

  withWriteOptions(
    transfer
      .command('attach')
      .description('give an unmatched transfer to a checkout (audited)')
      .argument('<transfer-id>', 'e.g. trf_...'),
  )
    .requiredOption('--checkout <id>', 'the checkout it pays, e.g. chk_...')
    .action(async (id: string, opts: WriteOptions & { checkout: string }) => {
      const outcome = await withBackend(io, opts, (b) => b.transfers.attach(id, opts.checkout, opts));
      printAdmin(io, opts.json, outcome, () => `attached: ${describeOutcome(outcome)}`);
    });
}

/** `transfer trf_… 40 USDT on TRON → checkout chk_… now underpaid (paid_partial)`. */
function describeOutcome({ transfer: t, checkout: c }: TransferOutcome): string {
  const what = `transfer ${t.id} of ${t.amount} ${t.asset} on ${t.chain} (${t.confirmations} confirmations)`;
  const exception = t.exception === null ? '' : `; exception: ${t.exception}`;
  if (c === null) return `${what} matches no checkout${exception}`;
  return `${what} → checkout ${c.id} now ${c.status}${c.reason === null ? '' : ` (${c.reason})`}${exception}`;
}
