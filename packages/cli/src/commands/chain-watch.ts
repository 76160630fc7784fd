import { Option, type Command } from 'commander';
import type { ChainWatch, WatchRequest } from '../admin/catalog-backend.js';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { orDash, printAdmin, printList, yesNo } from '../admin/print.js';
import { integerIn } from '../options.js';
import { UsageError, type Io } from '../output.js';
import { renderPairs } from '../table.js';

interface WatchOptions extends WriteOptions {
  rpcUrl?: string;
  rpcUrlEnv?: string;
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
The RPC URL usually carries the provider's key: pass it with --rpc-url-env NAME (read from that
environment variable) to keep it out of shell history and process lists. It is stored sealed and
shown masked. Without --token, every token of the chain with a contract in the catalog is watched;
the chain's own coin (ETH on Ethereum) is watched by scanning blocks unless --no-native.
See docs/chains.md.`;

function describeWatch(w: ChainWatch): string {
  const s = w.status;
  return renderPairs([
    ['chain', w.chain],
    ['rpc url', w.rpcUrl],
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
    ['scanned to', s.cursorBlock === null ? '-' : String(s.cursorBlock)],
    ['head', s.headBlock === null ? '-' : String(s.headBlock)],
    ['last round', orDash(s.lastRoundAt)],
    ['last error', s.lastError === null ? '-' : `${s.lastError} (${orDash(s.lastErrorAt)})`],
    ['watched by', orDash(s.leaseHolder)],
  ]);
}

/** `hostpay chain watch|show-watch|watches|unwatch`: the EVM watcher's settings, through the admin API. */
export function registerChainWatch(chain: Command, io: Io): void {
  withWriteOptions(
    chain
      .command('watch')
      .description('watch an EVM chain for payments by itself: node, tokens, confirmations, poll interval'),
  )
    .argument('<chain>', 'EVM chain symbol, e.g. ETH')
    .option('--rpc-url <url>', "the node's JSON-RPC URL, https:// or wss:// (required the first time)")
    .option('--rpc-url-env <name>', 'read the RPC URL from this environment variable instead')
    .option(
      '--token <asset[:contract[:decimals]]>',
      "a token to watch; repeat for more (default: the catalog's token contracts on the chain)",
      collectToken,
    )
    .option('--native <asset>', "the chain's own coin (default: the chain's network without a token contract)")
    .option('--no-native', 'do not scan blocks for native-coin payments')
    .option('--native-decimals <n>', 'decimals of the native coin (default 18)', integerIn(0, 36))
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
      let rpcUrl = opts.rpcUrl;
      if (opts.rpcUrlEnv !== undefined) {
        if (rpcUrl !== undefined) throw new UsageError('give --rpc-url or --rpc-url-env, not both');
        rpcUrl = io.env[opts.rpcUrlEnv];
        if (rpcUrl === undefined || rpcUrl === '')
          throw new UsageError(`--rpc-url-env ${opts.rpcUrlEnv}: that environment variable is not set`);
      }
      const req: WatchRequest = {
        rpcUrl,
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

  withAdminOptions(chain.command('watches').description('list the watched EVM chains with their state')).action(
    async (opts: AdminOptions) => {
      const watches = await withBackend(io, opts, (b) => b.catalog.chains.watches());
      printList(io, opts.json, watches, {
        columns: [
          { header: 'CHAIN' },
          { header: 'RPC URL' },
          { header: 'TOKENS' },
          { header: 'NATIVE' },
          { header: 'STATE' },
          { header: 'SCANNED' },
          { header: 'HEAD' },
          { header: 'LAST ERROR' },
        ],
        row: (w) => [
          w.chain,
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
