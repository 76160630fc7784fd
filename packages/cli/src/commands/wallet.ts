import type { Command } from 'commander';
import { jsonDecimal } from '@hostpay/protocol';
import type { PostingKind } from '@hostpay/server';
import { withServices } from '../context.js';
import { printResult, type Io } from '../output.js';
import { withStoreOptions, type StoreOptions } from '../options.js';

/** One subcommand per posting kind; the Record type makes a new server kind a compile error here. */
const POSTING_HELP: Record<PostingKind, string> = {
  credit: 'add AMOUNT to the balance',
  debit: 'take AMOUNT from the available (unfrozen) balance',
  freeze: 'freeze AMOUNT of the available balance',
  unfreeze: 'release AMOUNT of the frozen balance',
};

export function registerWallet(program: Command, io: Io): void {
  const wallet = program.command('wallet').description('create wallets and post balance changes');

  withStoreOptions(wallet.command('create').description('create a wallet for one asset on one chain'))
    .requiredOption('--merchant <id>', 'merchant that owns the wallet')
    .requiredOption('--asset <symbol>', 'asset symbol, e.g. USDT')
    .requiredOption('--chain <symbol>', 'chain symbol, e.g. TRON')
    .option('--inactive', 'create it inactive (listed with active: false)')
    .action(async (opts: StoreOptions & { merchant: string; asset: string; chain: string; inactive?: boolean }) => {
      const created = await withServices(io, opts.dataDir, (s, audit) =>
        s.admin.createWallet({ merchantId: opts.merchant, asset: opts.asset, chain: opts.chain, active: opts.inactive !== true }, audit),
      );
      printResult(io, opts.json, created, () =>
        `created wallet ${created.id}: ${created.asset} on ${created.chain.symbol}, ${created.active ? 'active' : 'inactive'}, balance ${String(created.amount)}`,
      );
    });

  for (const kind of Object.keys(POSTING_HELP) as PostingKind[]) {
    withStoreOptions(wallet.command(kind).description(POSTING_HELP[kind]))
      .argument('<wallet-id>', 'wallet, e.g. wal_...')
      .argument('<amount>', 'positive decimal, e.g. 100 or 0.000001 (kept exact)')
      .option('--idempotency-key <key>', 'repeat a posting safely: the same key applies it once (default: a new key)')
      .action(async (walletId: string, amount: string, opts: StoreOptions & { idempotencyKey?: string }) => {
        const { posting, replayed } = await withServices(io, opts.dataDir, (s, audit) =>
          s.admin.post({ walletId, kind, amount, idempotencyKey: opts.idempotencyKey }, audit),
        );
        // Same shape as the admin API's posting view; amounts as exact JSON numbers.
        const out = {
          id: posting.id,
          walletId: posting.wallet_id,
          kind: posting.kind,
          amount: jsonDecimal(posting.amount),
          idempotencyKey: posting.idempotency_key,
          amountAfter: jsonDecimal(posting.amount_after),
          freezeAmountAfter: jsonDecimal(posting.freeze_amount_after),
          createdAt: posting.created_at,
          replayed,
        };
        printResult(io, opts.json, out, () =>
          `${kind} ${posting.amount} on ${posting.wallet_id}: balance ${posting.amount_after}, frozen ${posting.freeze_amount_after}` +
          (replayed ? `\nreplayed: idempotency key ${posting.idempotency_key} was already applied, nothing changed` : ''),
        );
      });
  }
}
