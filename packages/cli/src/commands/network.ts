import { Option, type Command } from 'commander';
import type { CatalogNetwork, NetworkChange } from '../admin/catalog-backend.js';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { orDash, printAdmin, printList, yesNo } from '../admin/print.js';
import { UsageError, type Io } from '../output.js';

interface NetworkOptions extends WriteOptions {
  name?: string;
  tokenContract?: string;
  native?: boolean;
  deposits?: boolean;
}

const describeNetwork = (n: CatalogNetwork) =>
  `${n.id}: ${n.asset} on ${n.chain} (${n.name}), ${n.tokenContract === null ? 'native coin' : `contract ${n.tokenContract}`}, deposits ${n.depositEnabled ? 'on' : 'off'}`;

const CONTRACT_HELP = 'token contract: EVM 0x + 40 hex (stored with its EIP-55 checksum), TRON T… address';

export function registerNetwork(program: Command, io: Io): void {
  const network = program
    .command('network')
    .description('networks: an asset on a chain, with its token contract (what wallets are opened on)');

  withAdminOptions(network.command('list').description('list networks by asset and chain'))
    .option('--asset <symbol>', 'only networks of this asset')
    .option('--chain <symbol>', 'only networks on this chain')
    .action(async (opts: AdminOptions & { asset?: string; chain?: string }) => {
      const networks = await withBackend(io, opts, (b) =>
        b.catalog.networks.list({ asset: opts.asset, chain: opts.chain }),
      );
      printList(io, opts.json, networks, {
        columns: [
          { header: 'ID' },
          { header: 'ASSET' },
          { header: 'CHAIN' },
          { header: 'NAME' },
          { header: 'CONTRACT' },
          { header: 'DEPOSITS' },
        ],
        row: (n) => [n.id, n.asset, n.chain, n.name, orDash(n.tokenContract), yesNo(n.depositEnabled)],
        empty: 'no networks: add one with hostpay network add --asset SYMBOL --chain SYMBOL --name NAME',
      });
    });

  withWriteOptions(
    network.command('add').description('put an asset on a chain: merchants can then hold wallets of it there'),
  )
    .requiredOption('--asset <symbol>', 'asset symbol, e.g. USDC')
    .requiredOption('--chain <symbol>', 'chain symbol, e.g. BSC')
    .requiredOption('--name <name>', 'display name, e.g. BEP20')
    .option('--token-contract <address>', `${CONTRACT_HELP}; leave out for the chain's native coin`)
    .option('--no-deposits', 'add it with deposits disabled')
    .action(async (opts: NetworkOptions & { asset: string; chain: string; name: string }) => {
      const req = {
        asset: opts.asset,
        chain: opts.chain,
        name: opts.name,
        tokenContract: opts.tokenContract,
        depositEnabled: opts.deposits !== false,
      };
      const created = await withBackend(io, opts, (b) => b.catalog.networks.create(req, opts));
      printAdmin(io, opts.json, created, () => `added network ${describeNetwork(created)}`);
    });

  withWriteOptions(network.command('update').description('change a network: name, token contract, deposits'))
    .argument('<network-id>', 'e.g. net_... (see hostpay network list)')
    .option('--name <name>', 'display name')
    .addOption(new Option('--token-contract <address>', CONTRACT_HELP).conflicts('native'))
    .addOption(new Option('--native', "no token contract: the chain's native coin").conflicts('tokenContract'))
    .addOption(new Option('--deposits', 'enable deposits').conflicts('noDeposits'))
    .addOption(new Option('--no-deposits', 'disable deposits'))
    .action(async (id: string, opts: NetworkOptions) => {
      const change: NetworkChange = {
        name: opts.name,
        tokenContract: opts.native === true ? null : opts.tokenContract,
        depositEnabled: opts.deposits,
      };
      if (Object.values(change).every((v) => v === undefined))
        throw new UsageError(
          'network update needs at least one of --name, --token-contract/--native, --deposits/--no-deposits',
        );
      const updated = await withBackend(io, opts, (b) => b.catalog.networks.update(id, change, opts));
      printAdmin(io, opts.json, updated, () => `updated network ${describeNetwork(updated)}`);
    });
}
