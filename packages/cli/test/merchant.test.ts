import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostpayClient, type FeePreview } from '@hostpay/client';
import { parseExactJson } from '@hostpay/protocol';
import { run } from '../src/program.js';
import { authHeaders } from '../src/signed-request.js';
import { hostpay, lines, memoryIo, tempDir, type Result } from './helpers.js';
import { startRealServer, type RealServer } from './test-server.js';

const REQUEST_ID = /\(request id req_\w+\)$/;

/**
 * The merchant commands through the real bin against a real server started in this process.
 * The profile tests run in order: login, use the profile with no flags, logout.
 */
describe('merchant commands', () => {
  let server: RealServer;
  let client: HostpayClient;
  const config = tempDir();
  const profileDir = join(config.dir, 'hostpay'); // not created yet: login must create it 0700
  const creds = () => ({
    HOSTPAY_BASE_URL: server.url,
    HOSTPAY_API_KEY: server.demo.apiKey,
    HOSTPAY_API_SECRET: server.demo.apiSecret,
  });
  const flags = () => [
    '--base-url',
    server.url,
    '--api-key',
    server.demo.apiKey,
    '--api-secret',
    server.demo.apiSecret,
  ];
  const ok = (r: Result): string => {
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    return r.stdout;
  };

  beforeAll(async () => {
    server = await startRealServer();
    client = new HostpayClient({ baseUrl: server.url, apiKey: server.demo.apiKey, apiSecret: server.demo.apiSecret });
  });
  afterAll(async () => {
    await server.close();
    config.remove();
  });

  /** GET path as the API answers it, parsed with every number kept as its exact text. */
  async function apiResult(path: string): Promise<unknown> {
    const token = (await client.issueToken()).accessToken;
    const creds = { baseUrl: server.url, apiKey: server.demo.apiKey, apiSecret: server.demo.apiSecret, token };
    const res = await fetch(server.url + path, { headers: authHeaders(creds) });
    return (parseExactJson(await res.text()) as { result: unknown }).result;
  }

  it('wallets: a column-aligned table with every wallet, exact balance, frozen and available', async () => {
    const out = lines(ok(await hostpay(['wallets', ...flags()])));
    const wallets = await client.listWallets();
    const [header, ...rows] = out;
    expect(header).toMatch(/^ASSET +CHAIN +BALANCE +FROZEN +AVAILABLE +ACTIVE$/);
    expect(rows).toHaveLength(wallets.length);
    // Aligned: every row has its ACTIVE cell under the ACTIVE header.
    const activeAt = header!.indexOf('ACTIVE');
    for (const row of rows) expect(row.slice(activeAt)).toMatch(/^(yes|no)$/);

    const cells = rows.map((row) => row.trim().split(/ +/));
    for (const w of wallets) {
      expect(cells).toContainEqual([
        w.asset,
        w.chain.symbol,
        w.amount,
        w.freezeAmount,
        expect.any(String),
        w.active ? 'yes' : 'no',
      ]);
    }
    // 3.141592653589793238 - 0.5: all 18 decimals survive (as a double it would be 2.641592653589793).
    expect(cells).toContainEqual(['ETH', 'ETH', '3.141592653589793238', '0.5', '2.641592653589793238', 'yes']);
    expect(cells).toContainEqual(['USDT', 'TRON', '1250.75', '100.25', '1150.5', 'yes']);
    // Decimal points line up in the balance column.
    const balanceDots = rows.filter((r) => /^\S+ +\S+ +\d+\.\d/.test(r)).map((r) => r.indexOf('.'));
    expect(new Set(balanceDots).size).toBe(1);
  });

  it('wallets --json: one document, the API result as its items, amounts as exact number literals', async () => {
    const out = ok(await hostpay(['wallets', '--json'], creds()));
    expect(lines(out)).toHaveLength(1);
    expect(out).toContain('"amount":3.141592653589793238,"freezeAmount":0.5');
    expect(parseExactJson(out)).toEqual({ items: await apiResult('/api/v1/cp/wallets/'), nextCursor: null });
  });

  it('summary: the balances table with the exact wallet balance; --json equals the API result (in-process)', async () => {
    const out = ok(await hostpay(['summary', ...flags()]));
    expect(out).toContain('Balances');
    expect(out).toMatch(/ETH +ETH +3\.141592653589793238 +0\.5\n/);
    expect(out).toMatch(/USDT +TRON +1250\.75 +100\.25\n/);
    expect(out).toContain('Needing attention');
    const io = memoryIo(creds());
    expect(await run(['summary', '--json'], io), io.err).toBe(0);
    expect(lines(io.out)).toHaveLength(1);
    expect(io.out).toContain('"balance":3.141592653589793238');
    // The client's answer, read the same way (its exact strings stay strings, its counts become text).
    expect(parseExactJson(io.out)).toEqual(parseExactJson(JSON.stringify(await client.summary())));
  });

  it('report ledger: the CSV file to stdout, NDJSON with --format; a bad kind or range fails (in-process)', async () => {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const io = memoryIo(creds());
    expect(await run(['report', 'ledger', '--from', from, '--to', to], io), io.err).toBe(0);
    const records = io.out.split('\r\n');
    expect(records[0]).toBe(
      'postingId,postedAt,walletId,chain,asset,kind,amount,balanceAfter,freezeAmountAfter,checkoutId,payoutId',
    );
    expect(io.out).toMatch(/,ETH,ETH,credit,3\.141592653589793238,3\.141592653589793238,0,,\r\n/);
    const nd = memoryIo(creds());
    expect(await run(['report', 'ledger', '--from', from, '--to', to, '--format', 'ndjson'], nd), nd.err).toBe(0);
    const rows: { walletId: string }[] = [];
    for await (const row of client.report('ledger', { from, to })) rows.push(row as { walletId: string });
    expect(lines(nd.out)).toHaveLength(rows.length);
    expect(rows.length).toBe(records.length - 2);
    const bad = memoryIo(creds());
    expect(await run(['report', 'ledger', '--from', to, '--to', from], bad)).not.toBe(0);
    expect(bad.err).toContain('INVALID_QUERY');
  });

  it('fees-preview 100 EUR: the rule, the rate and the fee in the fee currency', async () => {
    const out = ok(await hostpay(['fees-preview', '100', 'EUR', ...flags()]));
    const p: FeePreview = await client.previewFees({ amount: '100', currency: 'EUR' });
    expect(p).toMatchObject({ currency: 'USDT', originalCurrency: 'EUR', rate: '1.0842', fee: '2.7105' });
    expect(lines(out)).toEqual([
      'amount        100 EUR',
      'charged in    USDT (100 EUR = 108.42 USDT at 1 EUR = 1.0842 USDT)',
      'rule          2.5 % of the amount, at least 0.5 USDT, plus on-chain fee 0 USDT',
      'tier          from 0 EUR up (default schedule)',
      'service fee   2.7105 USDT',
      'on-chain fee  0 USDT',
      'fee           2.7105 USDT',
    ]);
  });

  it('fees-preview --json equals the API result (in-process)', async () => {
    const io = memoryIo(creds());
    expect(await run(['fees-preview', '20000.000000000000000001', 'usdt', '--json'], io), io.err).toBe(0);
    expect(lines(io.out)).toHaveLength(1);
    expect(io.out).toContain('"amount":20000.000000000000000001');
    expect(parseExactJson(io.out)).toEqual(
      await apiResult('/api/v1/cp/psp/hosted-pay/fees-preview?amount=20000.000000000000000001&currency=usdt'),
    );
  });

  it("time: server time (ISO and Unix) and this machine's offset, near 0 here", async () => {
    const before = Math.floor(Date.now() / 1000);
    const out = ok(await hostpay(['time', '--base-url', server.url]));
    const unix = Number(/^server time +\d{4}-\d\d-\d\dT\S+Z \(Unix (\d+)\)$/m.exec(out)?.[1]);
    expect(unix).toBeGreaterThanOrEqual(before);
    expect(unix).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const offset = Number(/^offset +([+-]\d+\.\d{3}) s \(server - this machine; round trip \d+ ms\)$/m.exec(out)?.[1]);
    expect(Math.abs(offset)).toBeLessThan(1);
    expect(out).toMatch(/within the ±60 s the server accepts/);

    const io = memoryIo({ HOSTPAY_BASE_URL: server.url });
    expect(await run(['time', '--json'], io), io.err).toBe(0);
    const doc = JSON.parse(io.out) as {
      serverTime: string;
      unixTime: number;
      offsetSeconds: number;
      toleranceSeconds: number;
    };
    expect(Math.abs(doc.offsetSeconds)).toBeLessThan(1);
    expect(doc.unixTime).toBe(Math.floor(Date.parse(doc.serverTime) / 1000));
    expect(doc.toleranceSeconds).toBe(60);
  });

  it('a wrong secret: exit 4, one stderr line with the code and the request id (in-process)', async () => {
    const io = memoryIo({ ...creds(), HOSTPAY_API_SECRET: 'sk_wrong' });
    expect(await run(['wallets'], io)).toBe(4);
    expect(io.out).toBe('');
    expect(lines(io.err)).toEqual([expect.stringMatching(/^hostpay: INVALID_SIGNATURE: .*\(request id req_\w+\)$/)]);
  });

  it('a rejected --token / HOSTPAY_TOKEN says where the token came from (in-process)', async () => {
    const io = memoryIo({ ...creds(), HOSTPAY_TOKEN: 'not.a.token' });
    expect(await run(['fees-preview', '100', 'EUR'], io)).toBe(4);
    expect(lines(io.err)).toEqual([
      expect.stringMatching(
        /^hostpay: INVALID_TOKEN: .*; the token came from --token or HOSTPAY_TOKEN: .* \(request id req_\w+\)$/,
      ),
    ]);
  });

  describe('login, profile, logout', () => {
    const env = () => ({ HOSTPAY_CONFIG_DIR: profileDir });
    const file = join(profileDir, 'profiles.json');

    it('login checks the key first: a wrong secret exits 4 with INVALID_SIGNATURE and writes nothing', async () => {
      const r = await hostpay(
        ['login', '--base-url', server.url, '--api-key', server.demo.apiKey, '--api-secret', 'sk_wrong'],
        env(),
      );
      expect(r.code).toBe(4);
      expect(r.stdout).toBe('');
      expect(lines(r.stderr)).toEqual([expect.stringMatching(/^hostpay: INVALID_SIGNATURE: /)]);
      expect(r.stderr.trim()).toMatch(REQUEST_ID);
      expect(existsSync(profileDir)).toBe(false);
    });

    it('login writes a 0600 profile in a 0700 directory and never prints the secret', async () => {
      const out = ok(await hostpay(['login', ...flags()], env()));
      expect(out).not.toContain(server.demo.apiSecret);
      expect(out).toContain(`saved as profile "default" in ${file}`);
      expect(statSync(profileDir).mode & 0o777).toBe(0o700);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const saved = JSON.parse(readFileSync(file, 'utf8')) as {
        profiles: Record<string, { apiKey: string; baseUrl: string }>;
      };
      expect(saved.profiles['default']).toMatchObject({ apiKey: server.demo.apiKey, baseUrl: server.url });
    });

    it('later commands work with no flags and no credential variables', async () => {
      const out = lines(ok(await hostpay(['wallets'], env())));
      expect(out.find((l) => l.startsWith('ETH '))).toMatch(
        /^ETH +ETH +3\.141592653589793238 +0\.5 +2\.641592653589793238 +yes$/,
      );

      const io = memoryIo(env());
      expect(await run(['fees-preview', '100', 'USDT', '--json'], io), io.err).toBe(0);
      expect(parseExactJson(io.out)).toMatchObject({ originalCurrency: 'USDT', fee: '2.5' });
    });

    it('logout removes the profile; then a command without credentials exits 2 naming flags, variables and login', async () => {
      expect(ok(await hostpay(['logout'], env()))).toBe(`removed profile "default" from ${file}\n`);
      const r = await hostpay(['wallets'], env());
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(lines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(
        /^hostpay: missing API key: pass --api-key, set HOSTPAY_API_KEY, or save them once with `hostpay login /,
      );
    });
  });
});
