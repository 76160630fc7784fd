import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExactJson } from '@hostpay/protocol';
import { hostpay, lines, tempDir, type Result } from './helpers.js';

/**
 * Operator commands through the real bin against one temp data dir. The tests run in order and
 * build on each other (merchant -> key -> wallet -> postings), like an operator would.
 */
describe('operator commands', () => {
  const data = tempDir();
  const run = (...args: string[]) => hostpay([...args, '--data-dir', data.dir]);
  /** stdout must be exactly one JSON document; numbers come back as their exact text. */
  const json = (r: Result): Record<string, unknown> => {
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toHaveLength(1);
    JSON.parse(r.stdout);
    return parseExactJson(r.stdout) as Record<string, unknown>;
  };
  let merchantId = '';
  let walletId = '';

  beforeAll(async () => {
    const r = await run('merchant', 'create', '--name', 'Acme Ltd', '--json');
    const merchant = json(r);
    expect(merchant).toMatchObject({ name: 'Acme Ltd', status: 'active' });
    merchantId = String(merchant['id']);
    // The first command in a fresh data dir creates the master key, and says so in one line.
    expect(lines(r.stderr)).toEqual([
      expect.stringMatching(/^hostpay: warning: generated a new master key in .*master\.key/),
    ]);
  });
  afterAll(() => data.remove());

  it('creates a key and says the secret is shown once', async () => {
    const human = await run('key', 'create', '--merchant', merchantId);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^API key {5}hp_\w+$/m);
    expect(human.stdout).toMatch(/^API secret {2}sk_\S+$/m);
    expect(human.stdout).toMatch(/shown only this once/);
    expect(human.stderr).toBe('');

    const key = json(
      await run('key', 'create', '--merchant', merchantId, '--scopes', 'fees:read', '--rate-limit', '5', '--json'),
    );
    expect(key).toMatchObject({ merchantId, scopes: ['fees:read'], rateLimitPerMinute: '5', status: 'active' });
    expect(String(key['apiKey'])).toMatch(/^hp_/);
    expect(String(key['apiSecret'])).toMatch(/^sk_/);
  });

  it('invites a merchant dashboard user and prints the one-time link; a reset link for a user', async () => {
    const human = await run('merchant', 'user', 'invite', merchantId, 'Owner@Acme.example');
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(
      /^invitation for Owner@Acme\.example \(owner\) to merchant mer_\w+ \(one-time, valid until .+; shown only now, pass it on\):$/m,
    );
    expect(human.stdout).toMatch(/^https?:\/\/\S+\/dashboard\/invitation\/[A-Za-z0-9_-]{43}$/m);
    const again = await run('merchant', 'user', 'invite', merchantId, 'owner@acme.example');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/TEAM_CONFLICT/);
    const dev = json(
      await run('merchant', 'user', 'invite', merchantId, 'dev@acme.example', '--role', 'developer', '--json'),
    );
    expect(dev).toMatchObject({
      id: expect.stringMatching(/^inv_/),
      link: expect.stringContaining('/dashboard/invitation/'),
    });
    // No user has accepted yet: a reset link names nobody.
    const reset = await run('merchant', 'user', 'reset-link', merchantId, 'owner@acme.example');
    expect(reset.code).toBe(1);
    expect(reset.stderr).toMatch(/NOT_FOUND/);
  });

  it('creates a wallet', async () => {
    const wallet = json(
      await run('wallet', 'create', '--merchant', merchantId, '--asset', 'eth', '--chain', 'ETH', '--json'),
    );
    expect(wallet).toMatchObject({
      merchantId,
      asset: 'ETH',
      active: true,
      amount: '0',
      freezeAmount: '0',
      chain: { symbol: 'ETH' },
    });
    walletId = String(wallet['id']);
  });

  it('posts credit, freeze, unfreeze and debit with exact amounts', async () => {
    // 32 significant digits: a binary float would round this.
    const credit = json(
      await run(
        'wallet',
        'credit',
        walletId,
        '12345678901234.123456789012345678',
        '--idempotency-key',
        'dep-1',
        '--json',
      ),
    );
    expect(credit).toMatchObject({
      kind: 'credit',
      amount: '12345678901234.123456789012345678',
      amountAfter: '12345678901234.123456789012345678',
      replayed: false,
    });

    const freeze = json(await run('wallet', 'freeze', walletId, '0.000000000000000001', '--json'));
    expect(freeze).toMatchObject({ freezeAmountAfter: '0.000000000000000001' });
    const unfreeze = json(await run('wallet', 'unfreeze', walletId, '0.000000000000000001', '--json'));
    expect(unfreeze).toMatchObject({ freezeAmountAfter: '0' });

    const debit = await run('wallet', 'debit', walletId, '0.123456789012345678');
    expect(debit.code, debit.stderr).toBe(0);
    expect(debit.stdout).toBe(`debit 0.123456789012345678 on ${walletId}: balance 12345678901234, frozen 0\n`);
  });

  it('replays a posting with the same idempotency key instead of applying it twice', async () => {
    const replay = json(
      await run(
        'wallet',
        'credit',
        walletId,
        '12345678901234.123456789012345678',
        '--idempotency-key',
        'dep-1',
        '--json',
      ),
    );
    expect(replay).toMatchObject({ replayed: true, amountAfter: '12345678901234.123456789012345678' });
  });

  it('refuses a debit above the available balance: exit 1, one line on stderr', async () => {
    const r = await run('wallet', 'debit', walletId, '12345678901234.000000000000000001');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)).toEqual([
      expect.stringMatching(
        /^hostpay: INSUFFICIENT_FUNDS: debit of 12345678901234\.000000000000000001 exceeds the available balance 12345678901234 /,
      ),
    ]);
  });

  it('sets fees and rates', async () => {
    const fee = json(
      await run(
        'fee',
        'set',
        '--currency',
        'usdt',
        '--percent',
        '1.5',
        '--min',
        '1',
        '--on-chain-fee',
        '0.000001',
        '--json',
      ),
    );
    expect(fee).toMatchObject({
      merchantId: null,
      currency: 'USDT',
      isPercentage: true,
      value: '1.5',
      minValue: '1',
      onChainFee: '0.000001',
      fromAmount: '0',
    });

    const rate = await run('rate', 'set', 'EUR', 'USDT', '1.0842');
    expect(rate.stdout).toBe('rate set: 1 EUR = 1.0842 USDT\n');

    const override = json(
      await run(
        'fee',
        'set',
        '--currency',
        'EUR',
        '--fixed',
        '0.5',
        '--fee-currency',
        'usdt',
        '--from-amount',
        '1000',
        '--merchant',
        merchantId,
        '--json',
      ),
    );
    expect(override).toMatchObject({
      merchantId,
      currency: 'EUR',
      isPercentage: false,
      value: '0.5',
      fromAmount: '1000',
      feeCurrency: 'USDT',
    });
  });

  it('treats --percent with --fixed as a usage error: exit 2, one line', async () => {
    const r = await run('fee', 'set', '--currency', 'USDT', '--percent', '1', '--fixed', '2');
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual(["hostpay: option '--percent <p>' cannot be used with option '--fixed <f>'"]);
  });
});
