import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExactJson } from '@hostpay/protocol';
import { readVectorFile } from '../../protocol/test/vectors.js';
import { describeStores } from '../../server/test/helpers.js';
import { run } from '../src/program.js';
import { cli, json } from './admin-helpers.js';
import { lines, memoryIo, type Result } from './helpers.js';
import { startAdminServer, type AdminServer } from './test-server.js';

/**
 * `hostpay init` through a real server's admin API, on SQLite and PostgreSQL: the first run sets
 * up a merchant that can take a checkout with the printed key, a second run writes nothing, and
 * a missing or bad input fails before the first write.
 */
const vectors = readVectorFile<{ chains: { chain: string; network: string; accountXpub: string; slip132?: string }[] }>(
  'addresses.json',
);
const mainnet = (chain: string) => vectors.chains.find((c) => c.chain === chain && c.network === 'mainnet')!;
const TRON_XPUB = mainnet('TRON').accountXpub;
const BTC_ZPUB = mainnet('BTC').slip132!;
const TOKEN = randomBytes(32).toString('hex');

/** The tables init writes, and the audit log every admin write adds to. */
const TABLES = [
  'merchants',
  'wallets',
  'api_keys',
  'fee_schedules',
  'account_keys',
  'rate_sources',
  'chain_watches',
  'audit_log',
] as const;

interface Outcome {
  dryRun: boolean;
  merchantId: string | null;
  steps: { step: string; subject: string; outcome: string; id: string | null }[];
  key: { id: string; secret: string | null } | null;
}

const FLAGS = [
  '--name',
  'Corner Shop',
  '--wallet',
  'USDT/TRON',
  '--wallet',
  'btc/btc',
  '--xpub',
  `TRON=${TRON_XPUB}`,
  '--xpub',
  `BTC=${BTC_ZPUB}`,
  '--fee',
  'USDT=1.5%,min=1',
  '--fee',
  'EUR=0.3',
  '--rate-source',
  'kraken=ETH/EUR,USDT/EUR',
  '--watch-env',
  'ETH=ETH_NODE',
  '--allow-private-rpc',
];

describeStores('hostpay init', (dialect) => {
  let server: AdminServer;
  const env = () => ({
    HOSTPAY_ADMIN_URL: server.url,
    HOSTPAY_ADMIN_TOKEN: TOKEN,
    ETH_NODE: 'http://10.20.30.40:8545',
  });
  const init = (...args: string[]): Promise<Result> => cli(['init', ...args], env());
  const rows = async (): Promise<Record<string, number>> => {
    const db = server.services.store.db;
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const r = await db
        .selectFrom(table as 'merchants')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      counts[table] = Number(r.n);
    }
    return counts;
  };
  /** A usage failure: exit 2, one stderr line, nothing on stdout. */
  const usage = (r: Result): string => {
    expect([r.code, r.stdout, lines(r.stderr).length], r.stderr).toEqual([2, '', 1]);
    return r.stderr.trimEnd();
  };

  beforeAll(async () => {
    server = await startAdminServer(`alice:${TOKEN}`, dialect);
  });
  afterAll(() => server.close());

  it('refuses a missing --name without a terminal, and a bad xpub, before writing anything', async () => {
    const before = await rows();
    expect(before.merchants).toBe(0);
    const noName = FLAGS.filter((_, i) => i > 1);
    expect(usage(await init(...noName))).toBe(
      'hostpay: init needs --name (the merchant name): pass it, or run hostpay init on a terminal to be asked',
    );
    const badXpub = FLAGS.map((f) => (f === `TRON=${TRON_XPUB}` ? `TRON=${TRON_XPUB.slice(0, -1)}x` : f));
    expect(usage(await init(...badXpub))).toMatch(/^hostpay: --xpub TRON: not an extended public key/);
    expect(usage(await init('--name', 'Corner Shop', '--wallet', 'DOGE/TRON'))).toMatch(
      /^hostpay: --wallet DOGE\/TRON: DOGE has no network on TRON/,
    );
    // Well spelled but for another network: the server refuses it, and it is set before the merchant.
    const tpub = vectors.chains.find((c) => c.chain === 'BTC' && c.network === 'testnet')!.accountXpub;
    const refused = await init('--name', 'Corner Shop', '--wallet', 'USDT/TRON', '--xpub', `TRON=${tpub}`);
    expect([refused.code, refused.stdout], refused.stderr).toEqual([1, '']);
    expect(refused.stderr).toMatch(/^hostpay: [A-Z_]+: /);
    // A wallet on a chain without a key needs its --xpub.
    expect(usage(await init('--name', 'Corner Shop', '--wallet', 'USDT/TRON'))).toMatch(
      /^hostpay: init needs --xpub TRON=KEY \(the account xpub of chain TRON\)/,
    );
    expect(usage(await init(...FLAGS, '--scopes', 'wallets:read,everything'))).toMatch(/--scopes: unknown everything/);
    expect(usage(await init(...FLAGS, '--watch', 'TRON=node.example:8090'))).toBe(
      'hostpay: --watch TRON: the node URL must be http(s):// or ws(s)://',
    );
    expect(usage(await init(...FLAGS, '--fee', 'EUR=abc'))).toMatch(/--fee <currency=rule>.*write CURRENCY=PERCENT%/);
    const dry = json<Outcome>(await init(...FLAGS, '--dry-run', '--json'));
    expect(dry.dryRun).toBe(true);
    expect(dry.steps.every((s) => s.outcome === 'created')).toBe(true);
    expect(await rows()).toEqual(before);
  });

  it('first run creates every piece; the printed key creates a checkout; a second run writes nothing', async () => {
    const first = json<Outcome>(await init(...FLAGS, '--json'));
    expect(Object.keys(first).sort()).toEqual(['dryRun', 'key', 'merchantId', 'steps']);
    expect(first.steps.map((s) => [s.step, s.subject, s.outcome])).toEqual([
      ['xpub', 'TRON', 'created'],
      ['xpub', 'BTC', 'created'],
      ['merchant', 'Corner Shop', 'created'],
      ['wallet', 'USDT/TRON', 'created'],
      ['wallet', 'BTC/BTC', 'created'],
      ['fee', 'USDT (merchant schedule)', 'created'],
      ['fee', 'EUR (merchant schedule)', 'created'],
      ['rate-source', 'kraken ETH/EUR,USDT/EUR', 'created'],
      ['watch', 'ETH', 'created'],
      ['key', 'hostpay init', 'created'],
    ]);
    for (const s of first.steps) expect(Object.keys(s)).toEqual(['step', 'subject', 'outcome', 'id']);
    expect(first.steps[2]!.id).toBe(first.merchantId);
    expect(first.merchantId).toMatch(/^mer_/);
    expect(first.steps.find((s) => s.subject === 'USDT/TRON')!.id).toMatch(/^wal_/);
    expect(first.key).toEqual({ id: expect.stringMatching(/^hp_/), secret: expect.stringMatching(/^sk_/) });
    const after = await rows();
    expect(after).toMatchObject({
      merchants: 1,
      wallets: 2,
      api_keys: 1,
      fee_schedules: 2,
      account_keys: 2,
      rate_sources: 1,
      chain_watches: 1,
    });

    // The key has every scope, and takes a checkout at once.
    const key = json<{ merchantId: string; scopes: string[] }>(
      await cli(['key', 'get', first.key!.id, '--json'], env()),
    );
    expect(key.merchantId).toBe(first.merchantId);
    expect(key.scopes).toContain('payouts:write');
    const checkout = json<{ paymentOptions: { asset: string; chain: string; address: string }[] }>(
      await cli(['checkout', 'create', '10', 'USDT', '--option', 'USDT/TRON', '--json'], {
        HOSTPAY_BASE_URL: server.url,
        HOSTPAY_API_KEY: first.key!.id,
        HOSTPAY_API_SECRET: first.key!.secret!,
      }),
    );
    // A TRON address derived from the xpub init set.
    expect(checkout.paymentOptions).toEqual([
      expect.objectContaining({
        asset: 'USDT',
        chain: 'TRON',
        address: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
      }),
    ]);
    const withCheckout = await rows();

    const second = json<Outcome>(await init(...FLAGS, '--json'));
    expect(second.steps.map((s) => s.outcome)).toEqual(Array(10).fill('exists'));
    expect(second.steps.map((s) => s.id)).toEqual(first.steps.map((s) => s.id));
    expect(second.merchantId).toBe(first.merchantId);
    expect(second.key).toEqual({ id: first.key!.id, secret: null });
    expect(await rows()).toEqual(withCheckout);

    // The text form says the same, without a secret.
    const text = await init(...FLAGS);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^STEP +OUTCOME +WHAT +ID\n/);
    expect(text.stdout).toContain(`API key ${first.key!.id} (exists; hostpay init --new-key for another)`);
    expect(text.stdout).not.toMatch(/created|sk_/);
  });

  it('reports what it changes as updated, asks on a terminal, and makes a new key only when told', async () => {
    const merchantId = json<Outcome>(await init(...FLAGS, '--json')).merchantId!;
    const wallets = json<{ items: { id: string; asset: string }[] }>(
      await cli(['wallet', 'list', '--merchant', merchantId, '--json'], env()),
    ).items;
    const btc = wallets.find((w) => w.asset === 'BTC')!;
    expect((await cli(['wallet', 'deactivate', btc.id], env())).code).toBe(0);

    const changed = FLAGS.map((f) => (f === 'USDT=1.5%,min=1' ? 'USDT=2%,min=1' : f));
    const out = json<Outcome>(await init(...changed, '--rate-source', 'kraken=BTC/EUR', '--new-key', '--json'));
    const outcome = (subject: string) => out.steps.filter((s) => s.subject === subject).map((s) => s.outcome);
    expect(outcome('BTC/BTC')).toEqual(['updated']);
    expect(outcome('USDT (merchant schedule)')).toEqual(['updated']);
    expect(outcome('kraken BTC/EUR')).toEqual(['updated']);
    expect(outcome('USDT/TRON')).toEqual(['exists']);
    expect(out.key?.secret).toMatch(/^sk_/);
    const sources = json<{ items: { id: string; pairs: string[] }[] }>(
      await cli(['rates', 'source', 'list', '--json'], env()),
    ).items;
    // Pairs are added to a source, never taken away.
    expect(sources.find((s) => s.id === 'kraken')?.pairs.sort()).toEqual(['BTC/EUR', 'ETH/EUR', 'USDT/EUR']);
    expect((await rows()).api_keys).toBe(2);

    // A terminal: the missing name, wallet and xpub are asked for, on stderr.
    const asked: string[] = [];
    const answers = ['Kiosk', 'ETH/ETH', mainnet('ETH').accountXpub];
    const io = memoryIo(env());
    io.ask = async (question) => {
      asked.push(question);
      return answers.shift() ?? '';
    };
    expect(await run(['init', '--json'], io), io.err).toBe(0);
    expect(asked).toEqual([
      'the merchant name: ',
      'the wallets to enable, ASSET/CHAIN separated by commas (e.g. USDT/TRON): ',
      'the account xpub of chain ETH: ',
    ]);
    const kiosk = parseExactJson(io.out) as unknown as Outcome;
    expect(kiosk.steps.map((s) => [s.step, s.subject, s.outcome])).toEqual([
      ['xpub', 'ETH', 'created'],
      ['merchant', 'Kiosk', 'created'],
      ['wallet', 'ETH/ETH', 'created'],
      ['key', 'hostpay init', 'created'],
    ]);
  });
});

describe('docs/deploy.md, "A first production merchant"', () => {
  const doc = readFileSync(fileURLToPath(new URL('../../../docs/deploy.md', import.meta.url)), 'utf8');
  const section = doc.slice(doc.indexOf('## A first production merchant'), doc.indexOf('## Operating it'));

  it('leads with hostpay init, and every flag of its example is one init --help lists', async () => {
    const example = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(example.startsWith('hostpay init ')).toBe(true);
    const io = memoryIo();
    expect(await run(['init', '--help'], io)).toBe(0);
    const flags = [...example.matchAll(/(?<=\s)--[a-z-]+/g)].map(([f]) => f);
    expect(flags.length).toBeGreaterThan(5);
    for (const flag of flags) expect(io.out, flag).toMatch(new RegExp(`^ +${flag}\\b`, 'm'));
  });
});
