import { Option, type Command } from 'commander';
import { decimalText, Decimal } from '@hostpay/protocol';
import type { AdminWallet } from '../admin/backend.js';
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
import { printAdmin, printPage, yesNo } from '../admin/print.js';
import type { Io } from '../output.js';
import { renderPairs } from '../table.js';
import { registerWalletPostings } from './wallet-postings.js';

interface WalletListOptions extends AdminOptions, PageOptions {
  merchant?: string;
  asset?: string;
  chain?: string;
  active?: boolean;
}

export function registerWallet(program: Command, io: Io): void {
  const wallet = program.command('wallet').description('create and list wallets, post balance changes');

  withWriteOptions(wallet.command('create').description('create a wallet for one asset on one chain'))
    .requiredOption('--merchant <id>', 'merchant that owns the wallet')
    .requiredOption('--asset <symbol>', 'asset symbol, e.g. USDT')
    .requiredOption('--chain <symbol>', 'chain symbol, e.g. TRON (see hostpay asset networks USDT)')
    .option('--inactive', 'create it inactive (listed with active: false)')
    .action(async (opts: WriteOptions & { merchant: string; asset: string; chain: string; inactive?: boolean }) => {
      const req = { merchantId: opts.merchant, asset: opts.asset, chain: opts.chain, active: opts.inactive !== true };
      const created = await withBackend(io, opts, (b) => b.wallets.create(req, opts));
      printAdmin(
        io,
        opts.json,
        created,
        () =>
          `created wallet ${created.id}: ${created.asset} on ${created.chain.symbol}, ${created.active ? 'active' : 'inactive'}, balance ${created.amount}`,
      );
    });

  withPageOptions(withAdminOptions(wallet.command('list').description('list wallets of every merchant, oldest first')))
    .option('--merchant <id>', "only this merchant's wallets")
    .option('--asset <symbol>', 'only wallets of this asset')
    .option('--chain <symbol>', 'only wallets on this chain')
    .addOption(new Option('--active', 'only active wallets').conflicts('inactive'))
    .addOption(new Option('--inactive', 'only inactive wallets').conflicts('active'))
    .action(async (opts: WalletListOptions & { inactive?: boolean }) => {
      const active = opts.active === true ? true : opts.inactive === true ? false : undefined;
      const filter = { merchantId: opts.merchant, asset: opts.asset, chain: opts.chain, active };
      const page = await withBackend(io, opts, (b) => b.wallets.list({ ...filter, ...pageRequest(opts) }));
      printPage(io, opts.json, page, {
        columns: [
          { header: 'ID' },
          { header: 'MERCHANT' },
          { header: 'ASSET' },
          { header: 'CHAIN' },
          { header: 'BALANCE', align: 'decimal' },
          { header: 'FROZEN', align: 'decimal' },
          { header: 'ACTIVE' },
        ],
        row: (w) => [w.id, w.merchantId, w.asset, w.chain, w.amount, w.freezeAmount, yesNo(w.active)],
        empty: 'no wallets: create one with hostpay wallet create --merchant ID --asset SYMBOL --chain SYMBOL',
      });
    });

  withAdminOptions(wallet.command('get').description('show one wallet with its balances and networks'))
    .argument('<wallet-id>', 'e.g. wal_...')
    .action(async (id: string, opts: AdminOptions) => {
      const w = await withBackend(io, opts, (b) => b.wallets.get(id));
      printAdmin(io, opts.json, w, () => describeWallet(w));
    });

  for (const active of [true, false]) {
    const name = active ? 'activate' : 'deactivate';
    const effect = active
      ? 'listed as active to the merchant again'
      : 'listed with active: false (balances and postings are kept)';
    withWriteOptions(wallet.command(name).description(`${name} a wallet: ${effect}`))
      .argument('<wallet-id>', 'e.g. wal_...')
      .action(async (id: string, opts: WriteOptions) => {
        const w = await withBackend(io, opts, (b) => b.wallets.setActive(id, active, opts));
        printAdmin(
          io,
          opts.json,
          w,
          () => `wallet ${w.id} (${w.asset} on ${w.chain.symbol}) is now ${w.active ? 'active' : 'inactive'}`,
        );
      });
  }

  registerWalletPostings(wallet, io);
}

function describeWallet(w: AdminWallet): string {
  return renderPairs([
    ['id', w.id],
    ['merchant', w.merchantId],
    ['asset', `${w.asset} (${w.assetDetails.name})`],
    ['chain', `${w.chain.symbol} (${w.chain.name})`],
    ['balance', w.amount],
    ['frozen', w.freezeAmount],
    ['available', decimalText(new Decimal(w.amount).minus(w.freezeAmount))],
    ['active', yesNo(w.active)],
    [
      'networks',
      w.networks.map((n) => `${n.chainSymbol}${n.depositEnabled ? '' : ' (deposits off)'}`).join(', ') || '-',
    ],
    ['created', w.createdAt],
  ]);
}
