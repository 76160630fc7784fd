import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostpayClient } from '@hostpay/client';
import { cli, json, text } from './admin-helpers.js';
import { operatorScenario } from './admin-scenario.js';
import { startAdminServer, type AdminServer } from './test-server.js';
import { hostpay, lines, type Result } from './helpers.js';

const TOKEN = randomBytes(32).toString('hex');
const REQUEST_ID = /^req_\w+$/;

/** The same operator scenario through a real server's admin API: audited under the token's name. */
operatorScenario('operator commands through the admin API (--admin-url)', async () => {
  const server = await startAdminServer(`alice:${TOKEN}`);
  return {
    run: (...args) => cli(args, { HOSTPAY_ADMIN_URL: server.url, HOSTPAY_ADMIN_TOKEN: TOKEN }),
    operator: 'alice',
    requestId: REQUEST_ID,
    close: () => server.close(),
  };
});

describe('the remote backend', () => {
  let server: AdminServer;
  const env = () => ({ HOSTPAY_ADMIN_URL: server.url, HOSTPAY_ADMIN_TOKEN: TOKEN });
  const remote = (...args: string[]): Promise<Result> => cli(args, env());
  /** The one stderr line of a failed command, with exit 1 and nothing on stdout. */
  const failure = (r: Result, code = 1): string => {
    expect([r.code, r.stdout, lines(r.stderr).length], r.stderr).toEqual([code, '', 1]);
    return r.stderr.trimEnd();
  };

  beforeAll(async () => {
    server = await startAdminServer(`alice:${TOKEN},bob:${randomBytes(32).toString('hex')}`);
  });
  afterAll(() => server.close());

  it('merchant → key → wallet → credit → postings → audit, through the real bin; the key works for the merchant', async () => {
    const merchant = json<{ id: string }>(await remote('merchant', 'create', '--name', 'Remote Shop', '--json'));
    const key = json<{ apiKey: string; apiSecret: string }>(
      await remote('key', 'create', '--merchant', merchant.id, '--json'),
    );
    const wallet = json<{ id: string }>(
      await remote('wallet', 'create', '--merchant', merchant.id, '--asset', 'ETH', '--chain', 'ETH', '--json'),
    );

    // The bin itself, with --admin-url as a flag (the token only ever from the environment).
    const credit = await hostpay(
      [
        'wallet',
        'credit',
        wallet.id,
        '3.141592653589793238',
        '--idempotency-key',
        'dep-1',
        '--admin-url',
        server.url,
        '--json',
      ],
      { HOSTPAY_ADMIN_TOKEN: TOKEN },
    );
    expect(json(credit)).toMatchObject({
      walletId: wallet.id,
      kind: 'credit',
      amount: '3.141592653589793238',
      amountAfter: '3.141592653589793238',
      idempotencyKey: 'dep-1',
      replayed: false,
    });
    // Repeating the command (same key) applies nothing twice.
    expect(
      json(await remote('wallet', 'credit', wallet.id, '3.141592653589793238', '--idempotency-key', 'dep-1', '--json')),
    ).toMatchObject({ replayed: true, amountAfter: '3.141592653589793238' });

    const postings = lines(text(await remote('wallet', 'postings', wallet.id)));
    expect(postings).toHaveLength(2);
    expect(postings[1]).toMatch(/ credit +3\.141592653589793238 +3\.141592653589793238 +0 +dep-1$/);

    const audit = json<{ items: { operator: string; action: string; requestId: string }[] }>(
      await remote('audit', 'list', '--object-id', wallet.id, '--json'),
    );
    expect(audit.items.map((e) => [e.operator, e.action])).toEqual([
      ['alice', 'wallet.create'],
      ['alice', 'wallet.credit'],
    ]);
    for (const e of audit.items) expect(e.requestId).toMatch(REQUEST_ID);
    expect(text(await remote('audit', 'list', '--operator', 'alice', '--action', 'api_key.create'))).toMatch(
      / alice +api_key\.create +api_key hp_\w+ +req_\w+$/m,
    );

    const client = new HostpayClient({ baseUrl: server.url, apiKey: key.apiKey, apiSecret: key.apiSecret });
    expect(await client.listWallets()).toEqual([
      expect.objectContaining({ id: wallet.id, amount: '3.141592653589793238' }),
    ]);
  });

  it('repeating a write with the same --idempotency-key replays the first answer', async () => {
    const first = json<{ id: string }>(
      await remote('merchant', 'create', '--name', 'Once', '--idempotency-key', 'onboard-42', '--json'),
    );
    const again = json<{ id: string }>(
      await remote('merchant', 'create', '--name', 'Once', '--idempotency-key', 'onboard-42', '--json'),
    );
    expect(again.id).toBe(first.id);
    const other = failure(await remote('merchant', 'create', '--name', 'Twice', '--idempotency-key', 'onboard-42'));
    expect(other).toMatch(
      /^hostpay: IDEMPOTENCY_CONFLICT: Idempotency-Key onboard-42 was already used for a different request.* \(request id req_\w+\)$/,
    );
  });

  it('server errors are one line with the code and the request id, exit 1 (4 for a refused token)', async () => {
    expect(failure(await remote('wallet', 'get', 'wal_nope'))).toMatch(
      /^hostpay: NOT_FOUND: wallet wal_nope does not exist \(request id req_\w+\)$/,
    );
    expect(failure(await remote('wallet', 'credit', 'wal_nope', '1.5'))).toMatch(
      /^hostpay: NOT_FOUND: .* \(request id req_\w+\)$/,
    );
    expect(failure(await remote('fee', 'set', '--currency', 'NOPE', '--percent', '1'))).toMatch(
      /^hostpay: UNSUPPORTED_CURRENCY: .* \(request id req_\w+\)$/,
    );
    const badToken = await cli(['merchant', 'list'], { ...env(), HOSTPAY_ADMIN_TOKEN: 'x'.repeat(40) });
    expect(failure(badToken, 4)).toMatch(
      /^hostpay: INVALID_TOKEN: operator token is not valid: .* \(request id req_\w+\)$/,
    );
  });

  it('an unreachable server, or one without the admin API, is a one-line failure naming the address', async () => {
    const down = await cli(['merchant', 'list', '--admin-url', 'http://127.0.0.1:9'], { HOSTPAY_ADMIN_TOKEN: TOKEN });
    expect(failure(down, 3)).toMatch(
      /^hostpay: UNAVAILABLE: cannot reach http:\/\/127\.0\.0\.1:9\/admin\/v1: .*; check --admin-url or HOSTPAY_ADMIN_URL$/,
    );

    const plain = await startAdminServer('');
    try {
      const disabled = await cli(['merchant', 'list', '--admin-url', plain.url], { HOSTPAY_ADMIN_TOKEN: TOKEN });
      expect(failure(disabled)).toMatch(
        /^hostpay: NOT_FOUND: the admin API is not enabled on this server: .* \(request id req_\w+\)$/,
      );
    } finally {
      await plain.close();
    }
  });

  it('usage errors exit 2: no token, a bad URL, master-key rotate through the API', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ['merchant', 'list'],
        { HOSTPAY_ADMIN_URL: 'http://127.0.0.1:9' },
        /^hostpay: the admin API at http:\/\/127\.0\.0\.1:9 needs an operator token: set HOSTPAY_ADMIN_TOKEN/,
      ],
      [
        ['merchant', 'list', '--admin-url', 'ftp://x'],
        { HOSTPAY_ADMIN_TOKEN: TOKEN },
        /^hostpay: admin URL must start with http:\/\/ or https:\/\/, got "ftp:\/\/x"$/,
      ],
      [['master-key', 'rotate', '--admin-url', 'http://127.0.0.1:9'], {}, /^hostpay: unknown option '--admin-url'/],
    ];
    for (const [args, vars, line] of cases) {
      const r = await cli(args, vars);
      expect([r.code, r.stdout, lines(r.stderr)], args.join(' ')).toEqual([2, '', [expect.stringMatching(line)]]);
    }
  });
});
