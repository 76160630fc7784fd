import { Option, type Command } from 'commander';
import type { ChainWatch, WatchRequest } from '../admin/catalog-backend.js';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { orDash, printAdmin, printList, yesNo } from '../admin/print.js';
import { integerIn } from '../options.js';
import { UsageError, type Io } from '../output.js';
import { renderPairs } from '../table.js';

interface WatchOptions extends WriteOptions {
  kind?: string;
  url?: string;
  urlEnv?: string;
  rpcUrl?: string;
  rpcUrlEnv?: string;
  apiKeyEnv?: string;
  apiKey?: false;
  networkId?: string;
  token?: WatchRequest['tokens'];
  native?: string | false;
  nativeDecimals?: number;
  confirmations?: number;
  pollMs?: number;
  allowPrivateRpc?: boolean;
  startBlock?: number;
  enable?: boolean;
  disable?: boolean;
}

/** `--token USDT`, `--token USDT:0xdAC1…`, `--token USDT:0xdAC1…:6`; repeatable. */
function collectToken(text: string, previous: NonNullable<WatchRequest['tokens']> = []) {
  const [asset, contract, decimals, extra] = text.split(':');
  if (!asset || extra !== undefined || (decimals !== undefined && !/^\d{1,2}$/.test(decimals)))
    throw new UsageError(
      `--token ${text}: write ASSET, ASSET:CONTRACT or ASSET:CONTRACT:DECIMALS, e.g. USDT:0xdAC17F958D2ee523a2206206994597C13D831ec7:6`,
    );
  return [
    ...previous,
    { asset, ...(contract ? { contract } : {}), ...(decimals === undefined ? {} : { decimals: Number(decimals) }) },
  ];
}

const WATCH_HELP = `
The node URL usually carries the provider's key: pass it with --url-env NAME (read from that
environment variable) to keep it out of shell history and process lists; an API key only with
--api-key-env NAME. Both are stored sealed; the URL is shown masked, the key never. --kind picks
the adapter (evm-rpc, esplora, bitcoin-core, tron-http; default by the chain's family);
--network-id pins the network the node must serve (EVM chain id, or the genesis block hash).
Without --token, every token of the chain with a contract in the catalog is watched; the chain's
own coin is watched unless --no-native. See docs/chains.md.`;

function describeWatch(w: ChainWatch): string {
  const s = w.status;
  return renderPairs([
    ['chain', w.chain],
    ['kind', w.kind],
    ['node url', w.rpcUrl],
    ['api key', w.apiKeySet ? 'set (sealed)' : '-'],
    ['network', orDash(w.networkId)],
    [
      'tokens',
      w.tokens.length === 0 ? '-' : w.tokens.map((t) => `${t.asset} ${t.contract} (${t.decimals} decimals)`).join('\n'),
    ],
    ['native', w.nativeAsset === null ? '-' : `${w.nativeAsset} (${w.nativeDecimals} decimals)`],
    ['confirmations', String(w.confirmations)],
    ['poll', `${w.pollIntervalMs} ms`],
    ['private rpc', yesNo(w.allowPrivateRpc)],
    ['enabled', yesNo(w.enabled)],
    ['state', s.state],
    ['failed rounds', `${s.failedRounds} in a row`],
    ['scanned to', s.cursorBlock === null ? '-' : String(s.cursorBlock)],
    ['head', s.headBlock === null ? '-' : String(s.headBlock)],
    ['last round', orDash(s.lastRoundAt)],
    ['last error', s.lastError === null ? '-' : `${s.lastError} (${orDash(s.lastErrorAt)})`],
    ['watched by', orDash(s.leaseHolder)],
  ]);
}

/** `hostpay chain watch|show-watch|watches|unwatch`: the chain watcher's settings, through the admin API. */
export function registerChainWatch(chain: Command, io: Io): void {
  withWriteOptions(
    chain
      .command('watch')
      .description('watch a chain for payments by itself: adapter kind, node, tokens, confirmations, poll interval'),
  )
    .argument('<chain>', 'chain symbol, e.g. ETH, BTC, TRON')
    .addOption(
      new Option('--kind <kind>', "the adapter that talks to the node (default by the chain's family)").choices([
        'evm-rpc',
        'esplora',
        'bitcoin-core',
        'tron-http',
      ]),
    )
    .option('--url <url>', "the node's URL (required the first time)")
    .option('--url-env <name>', 'read the node URL from this environment variable instead')
    .option('--rpc-url <url>', 'the same as --url (EVM JSON-RPC)')
    .option('--rpc-url-env <name>', 'the same as --url-env')
    .option('--api-key-env <name>', "read the node's API key or credentials from this environment variable")
    .option('--no-api-key', 'remove the stored API key')
    .option('--network-id <id>', 'the network the node must serve: EVM chain id, or the genesis block hash')
    .option(
      '--token <asset[:contract[:decimals]]>',
      "a token to watch; repeat for more (default: the catalog's token contracts on the chain)",
      collectToken,
    )
    .option('--native <asset>', "the chain's own coin (default: the chain's network without a token contract)")
    .option('--no-native', 'do not scan blocks for native-coin payments')
    .option(
      '--native-decimals <n>',
      'decimals of the native coin (default 18 on EVM chains, 8 on Bitcoin, 6 on TRON)',
      integerIn(0, 36),
    )
    .option(
      '--confirmations <n>',
      "confirmations a payment needs (sets the chain's confirmationsRequired)",
      integerIn(1, 1000),
    )
    .option('--poll-ms <ms>', 'how often the node is asked for new blocks (default 4000)', integerIn(250, 300_000))
    .option('--allow-private-rpc', 'allow a node on this host or a private network (your own node)')
    .option('--start-block <n>', 'scan from this block (again)', integerIn(0, Number.MAX_SAFE_INTEGER))
    .addOption(new Option('--enable', 'watch (again)').conflicts('disable'))
    .addOption(new Option('--disable', 'keep the settings, stop watching').conflicts('enable'))
    .addHelpText('after', WATCH_HELP)
    .action(async (symbol: string, opts: WatchOptions) => {
      const given = [opts.url, opts.rpcUrl].filter((u) => u !== undefined);
      const envName = [opts.urlEnv, opts.rpcUrlEnv].filter((u) => u !== undefined);
      if (given.length + envName.length > 1)
        throw new UsageError('give one of --url, --url-env (--rpc-url, --rpc-url-env)');
      let rpcUrl = given[0];
      if (envName[0] !== undefined) {
        rpcUrl = io.env[envName[0]];
        if (rpcUrl === undefined || rpcUrl === '')
          throw new UsageError(`--url-env ${envName[0]}: that environment variable is not set`);
      }
      let apiKey: string | null | undefined;
      if (opts.apiKeyEnv !== undefined) {
        if (opts.apiKey === false) throw new UsageError('give --api-key-env or --no-api-key, not both');
        apiKey = io.env[opts.apiKeyEnv];
        if (apiKey === undefined || apiKey === '')
          throw new UsageError(`--api-key-env ${opts.apiKeyEnv}: that environment variable is not set`);
      } else if (opts.apiKey === false) apiKey = null;
      const req: WatchRequest = {
        kind: opts.kind,
        rpcUrl,
        apiKey,
        networkId: opts.networkId,
        tokens: opts.token,
        nativeAsset: opts.native === false ? null : opts.native,
        nativeDecimals: opts.nativeDecimals,
        confirmations: opts.confirmations,
        pollIntervalMs: opts.pollMs,
        allowPrivateRpc: opts.allowPrivateRpc,
        startBlock: opts.startBlock,
        enabled: opts.enable ? true : opts.disable ? false : undefined,
      };
      const w = await withBackend(io, opts, (b) => b.catalog.chains.watch(symbol, req, opts));
      printAdmin(
        io,
        opts.json,
        w,
        () =>
          `chain ${w.chain} watched through ${w.rpcUrl}: ${
            w.tokens
              .map((t) => t.asset)
              .concat(w.nativeAsset === null ? [] : [w.nativeAsset])
              .join(', ') || 'nothing'
          }, ${w.confirmations} confirmations, every ${w.pollIntervalMs} ms${w.enabled ? '' : ' (disabled)'}`,
      );
    });

  withAdminOptions(chain.command('show-watch').description("show a chain's watch settings and how far the watcher is"))
    .argument('<chain>', 'chain symbol, e.g. ETH')
    .action(async (symbol: string, opts: AdminOptions) => {
      const w = await withBackend(io, opts, (b) => b.catalog.chains.getWatch(symbol));
      printAdmin(io, opts.json, w, () => describeWatch(w));
    });

  withAdminOptions(chain.command('watches').description('list the watched chains with their state')).action(
    async (opts: AdminOptions) => {
      const watches = await withBackend(io, opts, (b) => b.catalog.chains.watches());
      printList(io, opts.json, watches, {
        columns: [
          { header: 'CHAIN' },
          { header: 'KIND' },
          { header: 'NODE URL' },
          { header: 'TOKENS' },
          { header: 'NATIVE' },
          { header: 'STATE' },
          { header: 'SCANNED' },
          { header: 'HEAD' },
          { header: 'LAST ERROR' },
        ],
        row: (w) => [
          w.chain,
          w.kind,
          w.rpcUrl,
          w.tokens.map((t) => t.asset).join(',') || '-',
          orDash(w.nativeAsset),
          w.status.state,
          w.status.cursorBlock === null ? '-' : String(w.status.cursorBlock),
          w.status.headBlock === null ? '-' : String(w.status.headBlock),
          orDash(w.status.lastError),
        ],
        empty: 'no chain is watched: hostpay chain watch ETH --rpc-url-env ETH_RPC_URL',
      });
    },
  );

  withWriteOptions(chain.command('unwatch').description('stop watching a chain (transfers already recorded stay)'))
    .argument('<chain>', 'chain symbol, e.g. ETH')
    .action(async (symbol: string, opts: WriteOptions) => {
      const w = await withBackend(io, opts, (b) => b.catalog.chains.unwatch(symbol, opts));
      printAdmin(
        io,
        opts.json,
        w,
        () => `chain ${w.chain} is no longer watched (it was scanned to block ${w.status.cursorBlock ?? '-'})`,
      );
    });
}
