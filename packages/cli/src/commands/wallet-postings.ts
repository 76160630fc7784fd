import type { Command } from 'commander';
import { POSTING_KINDS, type PostingKind } from '../admin/backend.js';
import { withBackend } from '../admin/open-backend.js';
import {
  pageRequest,
  withAdminOptions,
  withPageOptions,
  type AdminOptions,
  type PageOptions,
  type WriteOptions,
} from '../admin/options.js';
import { printAdmin, printPage } from '../admin/print.js';
import type { Io } from '../output.js';

/** One subcommand per posting kind; the Record type makes a new kind a compile error here. */
const POSTING_HELP: Record<PostingKind, string> = {
  credit: 'add AMOUNT to the balance',
  debit: 'take AMOUNT from the available (unfrozen) balance',
  freeze: 'freeze AMOUNT of the available balance',
  unfreeze: 'release AMOUNT of the frozen balance',
};

/** Balances change only by postings: credit, debit, freeze, unfreeze, each idempotent under its key. */
export function registerWalletPostings(wallet: Command, io: Io): void {
  for (const kind of POSTING_KINDS) {
    withAdminOptions(wallet.command(kind).description(POSTING_HELP[kind]))
      .argument('<wallet-id>', 'wallet, e.g. wal_...')
      .argument('<amount>', 'positive decimal, e.g. 100 or 0.000001 (kept exact)')
      .option('--idempotency-key <key>', 'repeat a posting safely: the same key applies it once (default: a new key)')
      .action(async (walletId: string, amount: string, opts: WriteOptions) => {
        const p = await withBackend(io, opts, (b) => b.wallets.post({ walletId, kind, amount }, opts));
        printAdmin(
          io,
          opts.json,
          p,
          () =>
            `${kind} ${p.amount} on ${p.walletId}: balance ${p.amountAfter}, frozen ${p.freezeAmountAfter}` +
            (p.replayed ? `\nreplayed: idempotency key ${p.idempotencyKey} was already applied, nothing changed` : ''),
        );
      });
  }

  withPageOptions(
    withAdminOptions(
      wallet.command('postings').description("a wallet's ledger postings, oldest first, with the balances after each"),
    ),
  )
    .argument('<wallet-id>', 'e.g. wal_...')
    .action(async (walletId: string, opts: AdminOptions & PageOptions) => {
      const page = await withBackend(io, opts, (b) => b.wallets.postings(walletId, pageRequest(opts)));
      printPage(io, opts.json, page, {
        columns: [
          { header: 'AT' },
          { header: 'KIND' },
          { header: 'AMOUNT', align: 'decimal' },
          { header: 'BALANCE', align: 'decimal' },
          { header: 'FROZEN', align: 'decimal' },
          { header: 'IDEMPOTENCY KEY' },
        ],
        row: (p) => [p.createdAt, p.kind, p.amount, p.amountAfter, p.freezeAmountAfter, p.idempotencyKey],
        empty: `no postings on ${walletId} yet: hostpay wallet credit ${walletId} AMOUNT`,
      });
    });
}
