import { Option, type Command } from 'commander';
import type { Chain, ChainChange, ChainXpub } from '../admin/catalog-backend.js';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { printAdmin, printList, yesNo } from '../admin/print.js';
import { integerIn } from '../options.js';
import { UsageError, type Io } from '../output.js';
import { renderPairs } from '../table.js';
import { activeFlag } from './catalog-flags.js';
import { registerChainHotWallet } from './chain-hot-wallet.js';
import { registerChainWatch } from './chain-watch.js';

interface ChainOptions extends WriteOptions {
  name?: string;
  networkType?: string;
  confirmations?: number;
  active?: boolean;
  inactive?: boolean;
  explorerTxUrl?: string;
}

const EXPLORER_HELP =
  "block explorer link for a payment's transaction, an https URL with {tx} where the hash goes (e.g. https://tronscan.org/#/transaction/{tx}): the payment page links each payment there";
/** `--explorer-tx-url ''` removes the link. */
const explorerOf = (opts: ChainOptions) =>
  opts.explorerTxUrl === undefined ? undefined : opts.explorerTxUrl.trim() === '' ? null : opts.explorerTxUrl;

const NETWORK_TYPES = ['mainnet', 'testnet', 'regtest'];
const networkTypeOption = (what: string) => new Option('--network-type <type>', what).choices(NETWORK_TYPES);
const describeChain = (c: Chain) =>
  `${c.symbol} (${c.name}): ${c.family} ${c.networkType}, ${c.confirmationsRequired} confirmations, ${c.active ? 'active' : 'inactive'}, ${c.accountKey === null ? 'no xpub' : `xpub ${c.accountKey.preview}`}`;

const XPUB_HELP = `
KEY is the account-level extended public key of the wallet that receives the payments (never a
private key): BTC the BIP-84 account m/84'/0'/0' as zpub or xpub (tpub/vpub on testnet and
regtest chains), e.g. from Sparrow (Settings > Keystores) or Electrum (Wallet > Information);
EVM m/44'/60'/0' and TRON m/44'/195'/0' as xpub. Deposit address i is KEY/0/i. Chains given the
same key share its address counter. See docs/catalog.md.`;

function describeXpub(x: ChainXpub): string {
  return renderPairs([
    ['chain', `${x.chain} (${x.family} ${x.networkType})`],
    ['xpub', x.xpub],
    ['fingerprint', x.fingerprint],
    ['key id', x.accountKeyId],
    ['next index', String(x.nextIndex)],
    ['shared by', x.chains.join(', ')],
    ['set', x.createdAt],
  ]);
}

export function registerChain(program: Command, io: Io): void {
  const chain = program
    .command('chain')
    .description(
      'the chain catalog: confirmations, network type, the xpub deposit addresses are derived from, and the EVM watcher',
    );

  withAdminOptions(chain.command('list').description('list every chain, with whether an xpub is set')).action(
    async (opts: AdminOptions) => {
      const chains = await withBackend(io, opts, (b) => b.catalog.chains.list());
      printList(io, opts.json, chains, {
        columns: [
          { header: 'SYMBOL' },
          { header: 'NAME' },
          { header: 'FAMILY' },
          { header: 'NETWORK' },
          { header: 'CONFIRMATIONS' },
          { header: 'ACTIVE' },
          { header: 'XPUB' },
          { header: 'NEXT INDEX' },
        ],
        row: (c) => [
          c.symbol,
          c.name,
          c.family,
          c.networkType,
          String(c.confirmationsRequired),
          yesNo(c.active),
          c.accountKey?.preview ?? '-',
          c.accountKey === null ? '-' : String(c.accountKey.nextIndex),
        ],
        empty: 'no chains: add one with hostpay chain add SYMBOL --name NAME --family btc|evm|tron',
      });
    },
  );

  withWriteOptions(chain.command('add').description('add a chain; set its xpub next (hostpay chain set-xpub)'))
    .argument('<symbol>', 'new chain symbol, 2 to 12 letters or digits, e.g. BSC')
    .requiredOption('--name <name>', 'display name, e.g. "BNB Smart Chain"')
    .addOption(
      new Option('--family <family>', 'how addresses are derived and spelled (fixed afterwards)')
        .choices(['btc', 'evm', 'tron'])
        .makeOptionMandatory(),
    )
    .addOption(networkTypeOption('mainnet, testnet or regtest (default mainnet)'))
    .option(
      '--confirmations <n>',
      'confirmations a payment needs, 1 to 1000 (default btc 2, evm 12, tron 19)',
      integerIn(1, 1000),
    )
    .option('--inactive', 'add it inactive: no wallets until activated')
    .option('--explorer-tx-url <template>', `${EXPLORER_HELP} (default: no link)`)
    .action(async (symbol: string, opts: ChainOptions & { name: string; family: string }) => {
      const req = {
        symbol,
        name: opts.name,
        family: opts.family,
        networkType: opts.networkType,
        confirmationsRequired: opts.confirmations,
        active: opts.inactive !== true,
        explorerTxUrl: explorerOf(opts),
      };
      const created = await withBackend(io, opts, (b) => b.catalog.chains.create(req, opts));
      printAdmin(
        io,
        opts.json,
        created,
        () => `added chain ${describeChain(created)}\nnext: hostpay chain set-xpub ${created.symbol} KEY`,
      );
    });

  withWriteOptions(
    chain
      .command('update')
      .description('change a chain: name, network type, confirmations, active, explorer link (the family is fixed)'),
  )
    .argument('<symbol>', 'chain symbol, e.g. ETH')
    .option('--name <name>', 'display name')
    .addOption(networkTypeOption('mainnet, testnet or regtest (only while the chain has no xpub and no addresses)'))
    .option(
      '--confirmations <n>',
      'confirmations a payment needs, 1 to 1000 (for checkouts created afterwards)',
      integerIn(1, 1000),
    )
    .addOption(new Option('--active', 'take new wallets again').conflicts('inactive'))
    .addOption(new Option('--inactive', 'no new wallets (existing wallets stay)').conflicts('active'))
    .option('--explorer-tx-url <template>', `${EXPLORER_HELP}; '' removes the link`)
    .action(async (symbol: string, opts: ChainOptions) => {
      const change: ChainChange = {
        name: opts.name,
        networkType: opts.networkType,
        confirmationsRequired: opts.confirmations,
        active: activeFlag(opts),
        explorerTxUrl: explorerOf(opts),
      };
      if (Object.values(change).every((v) => v === undefined))
        throw new UsageError(
          'chain update needs at least one of --name, --network-type, --confirmations, --active/--inactive, --explorer-tx-url',
        );
      const updated = await withBackend(io, opts, (b) => b.catalog.chains.update(symbol, change, opts));
      printAdmin(io, opts.json, updated, () => `updated chain ${describeChain(updated)}`);
    });

  withWriteOptions(
    chain
      .command('set-xpub')
      .description("set the chain's account-level extended public key (deposit addresses are derived from it)"),
  )
    .argument('<chain>', 'chain symbol, e.g. BTC')
    .argument('<key>', 'xpub/zpub (tpub/vpub on testnet and regtest)')
    .addHelpText('after', XPUB_HELP)
    .action(async (symbol: string, key: string, opts: WriteOptions) => {
      const x = await withBackend(io, opts, (b) => b.catalog.chains.setXpub(symbol, key, opts));
      const shared = x.chains.length > 1 ? `; shared with ${x.chains.filter((c) => c !== x.chain).join(', ')}` : '';
      printAdmin(
        io,
        opts.json,
        x,
        () =>
          `chain ${x.chain} derives deposit addresses from ${x.xpub.slice(0, 12)}… (fingerprint ${x.fingerprint}, next index ${x.nextIndex}${shared})`,
      );
    });

  withAdminOptions(
    chain
      .command('show-xpub')
      .description("show the chain's extended public key in full, its fingerprint and next index"),
  )
    .argument('<chain>', 'chain symbol, e.g. BTC')
    .action(async (symbol: string, opts: AdminOptions) => {
      const x = await withBackend(io, opts, (b) => b.catalog.chains.xpub(symbol));
      printAdmin(io, opts.json, x, () => describeXpub(x));
    });

  registerChainWatch(chain, io);
  registerChainHotWallet(chain, io);
}
