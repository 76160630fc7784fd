import type { Command } from 'commander';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, type AdminOptions } from '../admin/options.js';
import { printList, yesNo } from '../admin/print.js';
import type { Io } from '../output.js';

export function registerAsset(program: Command, io: Io): void {
  const asset = program.command('asset').description('the asset catalog');

  withAdminOptions(asset.command('networks').description('the chains an asset is available on (what wallet create --chain accepts)'))
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
