import { InvalidArgumentError, type Command } from 'commander';
import { parseAmount, SCOPES } from '@hostpay/protocol';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, type AdminOptions } from '../admin/options.js';
import { printAdmin } from '../admin/print.js';
import { commaList } from '../options.js';
import { UsageError, type Io } from '../output.js';
import { renderTable } from '../table.js';
import { parseWallet, planInit, type FeeSpec, type InitRequest, type Need, type Step } from './init-plan.js';

interface InitOptions extends AdminOptions {
  merchant?: string;
  name?: string;
  xpub?: Map<string, string>;
  wallet?: { asset: string; chain: string }[];
  fee?: FeeSpec[];
  feesDefault?: boolean;
  rateSource?: { kind: string; pairs: string[] }[];
  watch?: Map<string, string>;
  watchEnv?: Map<string, string>;
  allowPrivateRpc?: boolean;
  scopes?: string[];
  keyLabel: string;
  newKey?: boolean;
  dryRun?: boolean;
}

/** The rate source kinds the server knows (`hostpay rates source set --kind`). */
const RATE_KINDS = ['coinbase', 'kraken', 'binance', 'ecb', 'demo'];

const HELP = `
Steps, in this order, each reported as created, exists or updated:
  xpub         --xpub CHAIN=KEY for every chain a wallet is on that has no key yet (chain set-xpub)
  merchant     found by --merchant ID or by its exact --name, else created (merchant create)
  wallet       --wallet ASSET/CHAIN, created or activated (wallet create)
  fee          --fee CURRENCY=RULE into the merchant's own schedule, or the default one with
               --fees-default; RULE is 1.5% or a fixed 0.3, then optionally ,min=M ,on-chain=X
  rate-source  --rate-source KIND=BASE/QUOTE,… (kinds: ${RATE_KINDS.join(', ')}); pairs are added, never removed
  watch        --watch CHAIN=URL or --watch-env CHAIN=VARIABLE; an existing watch is kept as it is
               (change it with hostpay chain watch)
  key          an API key with --scopes (default: every scope), only when the merchant has no
               active key or with --new-key; its secret is printed once

Every input is checked before anything is written: a bad xpub or an unknown asset creates
nothing. On a terminal, a missing --name, --wallet or --xpub is asked for; otherwise it is an
error (exit 2). Running it again with the same flags changes nothing and reports every step as
exists. Example (docs/deploy.md, "A first production merchant"):
  hostpay init --name "Corner Shop" --wallet USDT/TRON --wallet ETH/ETH \\
    --xpub TRON=xpub… --xpub ETH=xpub… --fee USDT=1.5%,min=1 \\
    --rate-source kraken=ETH/EUR,USDT/EUR --watch-env ETH=ETH_NODE --json`;

/** `CHAIN=VALUE`, repeatable; a chain given twice is a mistake. */
const chainMap =
  (flag: string) =>
  (text: string, previous: Map<string, string> = new Map()): Map<string, string> => {
    const m = /^([A-Za-z0-9]{1,12})=(.+)$/.exec(text.trim());
    if (!m) throw new InvalidArgumentError(`must be CHAIN=VALUE, e.g. ${flag}`);
    const chain = m[1]!.toUpperCase();
    if (previous.has(chain)) throw new InvalidArgumentError(`chain ${chain} given twice`);
    return new Map(previous).set(chain, m[2]!);
  };

const collect =
  <T>(parse: (text: string) => T) =>
  (text: string, previous: T[] = []): T[] => {
    try {
      return [...previous, parse(text)];
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  };

const amount = (text: string, what: string): string => {
  const check = parseAmount(text);
  if (!check.ok && !/^0+(\.0+)?$/.test(text)) throw new InvalidArgumentError(`${what} ${text}: ${check.reason}`);
  return text;
};

/** `EUR=1.5%`, `USDT=0.3`, `EUR=1.5%,min=0.5,on-chain=0.1`. */
function parseFee(text: string): FeeSpec {
  const [head = '', ...extras] = text.split(',');
  const m = /^([A-Za-z0-9]{1,12})=([0-9.]+)(%?)$/.exec(head.trim());
  if (!m) throw new InvalidArgumentError(`${text}: write CURRENCY=PERCENT% or CURRENCY=FIXED, e.g. EUR=1.5%,min=0.5`);
  const fee: FeeSpec = {
    currency: m[1]!.toUpperCase(),
    isPercentage: m[3] === '%',
    value: amount(m[2]!, 'fee'),
    min: '0',
    onChainFee: '0',
  };
  for (const extra of extras) {
    const [k, v = ''] = extra.trim().split('=');
    if (k === 'min') fee.min = amount(v, 'min');
    else if (k === 'on-chain') fee.onChainFee = amount(v, 'on-chain');
    else throw new InvalidArgumentError(`${text}: unknown ${JSON.stringify(extra)} (min=M, on-chain=X)`);
  }
  return fee;
}

function parseRateSource(text: string): { kind: string; pairs: string[] } {
  const m = /^([a-z]+)=(.+)$/.exec(text.trim());
  if (!m) throw new InvalidArgumentError(`${text}: write KIND=BASE/QUOTE,…, e.g. kraken=ETH/EUR,USDT/EUR`);
  if (!RATE_KINDS.includes(m[1]!))
    throw new InvalidArgumentError(`${text}: kind must be one of ${RATE_KINDS.join(', ')}`);
  const pairs = commaList(m[2]!).map((p) => p.toUpperCase());
  const bad = pairs.find((p) => !/^[A-Z0-9]{1,12}\/[A-Z0-9]{1,12}$/.test(p));
  if (bad !== undefined) throw new InvalidArgumentError(`${text}: ${bad} is not a BASE/QUOTE pair`);
  return { kind: m[1]!, pairs };
}

/** On a terminal, asks (on stderr); otherwise names the flag that is missing (exit 2). */
function needFrom(io: Io): Need {
  return async (flag, question) => {
    if (io.ask === undefined)
      throw new UsageError(`init needs ${flag} (${question}): pass it, or run hostpay init on a terminal to be asked`);
    const answer = (await io.ask(`${question}: `)).trim();
    if (answer === '') throw new UsageError(`init needs ${flag} (${question}): nothing was typed`);
    return answer;
  };
}

export function registerInit(program: Command, io: Io): void {
  withAdminOptions(
    program
      .command('init')
      .description(
        'set up a merchant for production in one go: xpubs, merchant, wallets, fees, rate sources, watchers, API key (idempotent)',
      ),
  )
    .option('--name <name>', 'the merchant, found by this exact name or created with it')
    .option('--merchant <id>', 'an existing merchant instead of --name, e.g. mer_...')
    .option('--wallet <asset/chain>', 'a wallet to enable, e.g. USDT/TRON; repeat for more', collect(parseWallet))
    .option('--xpub <chain=key>', "a chain's account xpub, e.g. TRON=xpub6…; repeat per chain", chainMap('TRON=xpub6…'))
    .option(
      '--fee <currency=rule>',
      'a fee tier from 0, e.g. EUR=1.5%,min=0.5 or USDT=0.3; repeat per currency',
      collect(parseFee),
    )
    .option('--fees-default', "write --fee into the default schedule instead of the merchant's own")
    .option(
      '--rate-source <kind=pairs>',
      'a rate source and pairs, e.g. kraken=ETH/EUR,USDT/EUR; repeatable',
      collect(parseRateSource),
    )
    .option('--watch <chain=url>', 'watch a chain through this node URL; repeat per chain', chainMap('ETH=https://…'))
    .option(
      '--watch-env <chain=variable>',
      'the same, the URL read from an environment variable',
      chainMap('ETH=ETH_NODE'),
    )
    .option('--allow-private-rpc', 'allow watch nodes on a private network (your own node)')
    .option('--scopes <list>', `the API key's scopes (default: all, ${SCOPES.join(',')})`, commaList)
    .option('--key-label <text>', 'label of the API key', 'hostpay init')
    .option('--new-key', 'create an API key even when the merchant has one')
    .option('--dry-run', 'check everything and print what would happen; write nothing')
    .addHelpText('after', HELP)
    .action(async (opts: InitOptions) => {
      const req = request(io, opts);
      const result = await withBackend(io, opts, async (b) => {
        const plan = await planInit(b, req, needFrom(io));
        if (opts.dryRun === true) return { dryRun: true, merchantId: null, steps: plan.steps, key: null };
        return { dryRun: false, ...(await plan.apply()) };
      });
      printAdmin(io, opts.json, result, () => describe(result));
    });
}

function request(io: Io, opts: InitOptions): InitRequest {
  if (opts.name !== undefined && opts.merchant !== undefined)
    throw new UsageError('init takes --name or --merchant, not both');
  const watches = new Map(opts.watch ?? []);
  for (const [chain, variable] of opts.watchEnv ?? []) {
    const url = io.env[variable];
    if (url === undefined || url === '')
      throw new UsageError(`--watch-env ${chain}=${variable}: that environment variable is not set`);
    if (watches.has(chain)) throw new UsageError(`chain ${chain} has both --watch and --watch-env`);
    watches.set(chain, url);
  }
  for (const [chain, url] of watches) {
    // The server checks the node further (DNS, private ranges) when the watch is set.
    if (!/^(https?|wss?):\/\/[^/]/i.test(url) || !URL.canParse(url))
      throw new UsageError(`--watch ${chain}: the node URL must be http(s):// or ws(s)://`);
  }
  const unknown = (opts.scopes ?? []).filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new UsageError(`--scopes: unknown ${unknown.join(', ')} (known: ${SCOPES.join(', ')})`);
  return {
    merchantId: opts.merchant,
    name: opts.name,
    xpubs: new Map(opts.xpub ?? []),
    wallets: opts.wallet ?? [],
    fees: opts.fee ?? [],
    feesDefault: opts.feesDefault === true,
    rateSources: opts.rateSource ?? [],
    watches,
    allowPrivateRpc: opts.allowPrivateRpc === true,
    scopes: opts.scopes ?? [...SCOPES],
    keyLabel: opts.keyLabel,
    newKey: opts.newKey === true,
  };
}

interface InitResult {
  dryRun: boolean;
  merchantId: string | null;
  steps: Step[];
  key: { id: string; secret: string | null } | null;
}

function describe(r: InitResult): string {
  const word = (s: Step) => (r.dryRun && s.outcome !== 'exists' ? `would ${s.outcome.replace(/d$/, '')}` : s.outcome);
  const table = renderTable(
    [{ header: 'STEP' }, { header: 'OUTCOME' }, { header: 'WHAT' }, { header: 'ID' }],
    r.steps.map((s) => [s.step, word(s), s.subject, s.id ?? '-']),
  );
  if (r.dryRun) return `dry run: nothing was written\n${table}`;
  const lines = [table, '', `merchant ${r.merchantId}`];
  if (r.key?.secret != null) {
    lines.push(
      `API key     ${r.key.id}`,
      `API secret  ${r.key.secret}`,
      'The secret is shown only this once and stored encrypted: save it now, it cannot be shown again.',
    );
  } else lines.push(`API key ${r.key?.id} (exists; hostpay init --new-key for another)`);
  return lines.join('\n');
}
