import { Option, type Command } from 'commander';
import type { Asset, AssetChange } from '../admin/catalog-backend.js';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { printAdmin, printList, yesNo } from '../admin/print.js';
import { integerIn } from '../options.js';
import { UsageError, type Io } from '../output.js';
import { activeFlag } from './catalog-flags.js';

interface AssetOptions extends WriteOptions {
  name?: string;
  image?: string;
  precision?: number;
  crypto?: boolean;
  fiat?: boolean;
  active?: boolean;
  inactive?: boolean;
}

const describeAsset = (a: Asset) =>
  `${a.symbol} (${a.name}): precision ${a.precision}, ${a.isCrypto ? 'crypto' : 'fiat'}, ${a.active ? 'active' : 'inactive'}, image ${a.image}`;

export function registerAsset(program: Command, io: Io): void {
  const asset = program
    .command('asset')
    .description('the asset catalog: what is paid and held (see also hostpay chain, hostpay network)');

  withAdminOptions(asset.command('list').description('list every asset with its precision')).action(
    async (opts: AdminOptions) => {
      const assets = await withBackend(io, opts, (b) => b.catalog.assets.list());
      printList(io, opts.json, assets, {
        columns: [
          { header: 'SYMBOL' },
          { header: 'NAME' },
          { header: 'PRECISION' },
          { header: 'CRYPTO' },
          { header: 'ACTIVE' },
          { header: 'IMAGE' },
        ],
        row: (a) => [a.symbol, a.name, String(a.precision), yesNo(a.isCrypto), yesNo(a.active), a.image],
        empty: 'no assets: add one with hostpay asset add SYMBOL --name NAME --precision N',
      });
    },
  );

  withWriteOptions(asset.command('add').description('add an asset; put it on a chain next (hostpay network add)'))
    .argument('<symbol>', 'new asset symbol, 2 to 12 letters or digits, e.g. DAI')
    .requiredOption('--name <name>', 'display name, e.g. "Dai Stablecoin"')
    .requiredOption('--precision <n>', 'decimal places of amounts, 0 to 18 (fees are rounded to it)', integerIn(0, 18))
    .option('--image <file>', 'icon file name (default <symbol>.png)')
    .option('--fiat', 'a fiat currency (default: crypto)')
    .option('--inactive', 'add it inactive: no wallets until activated')
    .action(async (symbol: string, opts: AssetOptions & { name: string; precision: number }) => {
      const req = {
        symbol,
        name: opts.name,
        precision: opts.precision,
        image: opts.image,
        isCrypto: opts.fiat !== true,
        active: opts.inactive !== true,
      };
      const created = await withBackend(io, opts, (b) => b.catalog.assets.create(req, opts));
      printAdmin(
        io,
        opts.json,
        created,
        () =>
          `added asset ${describeAsset(created)}\nnext: hostpay network add --asset ${created.symbol} --chain CHAIN --name NAME`,
      );
    });

  withWriteOptions(
    asset.command('update').description('change an asset: name, image, precision, crypto or fiat, active'),
  )
    .argument('<symbol>', 'asset symbol, e.g. USDT')
    .option('--name <name>', 'display name')
    .option('--image <file>', 'icon file name')
    .option(
      '--precision <n>',
      'decimal places, 0 to 18 (lowering it is refused once wallets or fees use the asset)',
      integerIn(0, 18),
    )
    .addOption(new Option('--crypto', 'mark it a crypto asset').conflicts('fiat'))
    .addOption(new Option('--fiat', 'mark it a fiat currency').conflicts('crypto'))
    .addOption(new Option('--active', 'take new wallets again').conflicts('inactive'))
    .addOption(new Option('--inactive', 'no new wallets (existing wallets and balances stay)').conflicts('active'))
    .action(async (symbol: string, opts: AssetOptions) => {
      const change: AssetChange = {
        name: opts.name,
        image: opts.image,
        precision: opts.precision,
        isCrypto: opts.crypto === true ? true : opts.fiat === true ? false : undefined,
        active: activeFlag(opts),
      };
      if (Object.values(change).every((v) => v === undefined))
        throw new UsageError(
          'asset update needs at least one of --name, --image, --precision, --crypto/--fiat, --active/--inactive',
        );
      const updated = await withBackend(io, opts, (b) => b.catalog.assets.update(symbol, change, opts));
      printAdmin(io, opts.json, updated, () => `updated asset ${describeAsset(updated)}`);
    });

  withAdminOptions(
    asset.command('networks').description('the chains an asset is available on (what wallet create --chain accepts)'),
  )
    .argument('<symbol>', 'asset symbol, e.g. USDT')
    .action(async (symbol: string, opts: AdminOptions) => {
      const networks = await withBackend(io, opts, (b) => b.assets.networks(symbol));
      printList(io, opts.json, networks, {
        columns: [{ header: 'CHAIN' }, { header: 'NAME' }, { header: 'DEPOSITS' }, { header: 'NETWORK ID' }],
        row: (n) => [n.chainSymbol, n.name, yesNo(n.depositEnabled), n.id],
        empty: `${symbol.toUpperCase()} is not available on any chain`,
      });
    });
}
