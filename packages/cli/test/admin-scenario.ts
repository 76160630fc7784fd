import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCOPES } from '@hostpay/protocol';
import { cells, json, text } from './admin-helpers.js';
import type { Result } from './helpers.js';

/** Where the scenario runs: the local store or a server's admin API. */
export interface ScenarioTarget {
  /** Runs `hostpay <args>` against the target. */
  run(...args: string[]): Promise<Result>;
  /** The operator name the audit log records for these commands. */
  operator: string;
  /** What the audit log's REQUEST ID column shows. */
  requestId: RegExp;
  close(): Promise<void>;
}

/**
 * Every operator command in the order an operator sets up a merchant, written once and run on
 * each backend (admin-local.test.ts, admin-remote.test.ts): the same commands must give the same
 * results whether they open the store or call the admin API. The tests build on each other.
 */
export function operatorScenario(name: string, setup: () => Promise<ScenarioTarget>): void {
  describe(name, () => {
    let target: ScenarioTarget;
    const run = (...args: string[]): Promise<Result> => target.run(...args);
    let merchantId = '';
    let otherId = '';
    let keyId = '';
    let walletId = '';

    beforeAll(async () => {
      target = await setup();
      merchantId = json<{ id: string }>(await run('merchant', 'create', '--name', 'Acme Ltd', '--json')).id;
      otherId = json<{ id: string }>(await run('merchant', 'create', '--name', 'Sub Shop', '--json')).id;
    });
    afterAll(async () => target.close());

    it('merchant list, get, rename, suspend, resume', async () => {
      const table = cells(text(await run('merchant', 'list')));
      expect(table[0]).toEqual(['ID', 'NAME', 'STATUS', 'CREATED']);
      expect(table.slice(1).map((r) => r.slice(0, 3))).toEqual([
        [merchantId, 'Acme Ltd', 'active'],
        [otherId, 'Sub Shop', 'active'],
      ]);

      // One per page: the first page names the cursor of the next, in text and JSON.
      const first = json<{ items: { id: string }[]; nextCursor: string }>(
        await run('merchant', 'list', '--limit', '1', '--json'),
      );
      expect(first.items.map((m) => m.id)).toEqual([merchantId]);
      expect(text(await run('merchant', 'list', '--limit', '1'))).toContain(
        `more: repeat with --cursor ${first.nextCursor}`,
      );
      const second = json<{ items: { id: string }[]; nextCursor: null }>(
        await run('merchant', 'list', '--limit', '1', '--cursor', first.nextCursor, '--json'),
      );
      expect(second).toEqual({ items: [expect.objectContaining({ id: otherId })], nextCursor: null });

      expect(text(await run('merchant', 'rename', otherId, 'Sub Shop GmbH'))).toBe(
        `renamed merchant ${otherId} to Sub Shop GmbH\n`,
      );
      expect(json(await run('merchant', 'suspend', otherId, '--json'))).toMatchObject({
        id: otherId,
        status: 'suspended',
      });
      expect(
        cells(text(await run('merchant', 'list', '--status', 'suspended')))
          .slice(1)
          .map((r) => r[0]),
      ).toEqual([otherId]);
      expect(text(await run('merchant', 'resume', otherId))).toMatch(
        /^resumed merchant mer_\w+ \(Sub Shop GmbH\): status active$/m,
      );
      expect(text(await run('merchant', 'get', otherId))).toMatch(/^name +Sub Shop GmbH$/m);
    });

    it('key create, list, get, update, rotate', async () => {
      keyId = json<{ id: string }>(
        await run('key', 'create', '--merchant', merchantId, '--label', 'checkout', '--json'),
      ).id;
      const list = cells(text(await run('key', 'list', '--merchant', merchantId)));
      expect(list[0]).toEqual(['KEY', 'MERCHANT', 'STATUS', 'SCOPES', 'EXPIRES', 'LAST USED', 'LABEL']);
      expect(list[1]).toEqual([keyId, merchantId, 'active', DEFAULT_SCOPES.join(','), '-', '-', 'checkout']);
      // Never a secret outside `key create` / `key rotate`.
      expect(JSON.stringify(json(await run('key', 'get', keyId, '--json')))).not.toMatch(/sk_|apiSecret/);

      const updated = json(
        await run(
          'key',
          'update',
          keyId,
          '--rate-limit',
          '5',
          '--allow-ip',
          '10.0.0.0/8',
          '--expires-at',
          '2099-01-01T00:00:00Z',
          '--label',
          '',
          '--json',
        ),
      );
      expect(updated).toMatchObject({
        rateLimitPerMinute: '5',
        ipAllowList: ['10.0.0.0/8'],
        expiresAt: '2099-01-01T00:00:00.000Z',
        label: null,
      });
      const reset = json(
        await run(
          'key',
          'update',
          keyId,
          '--rate-limit',
          'default',
          '--allow-ip',
          'any',
          '--expires-at',
          'never',
          '--json',
        ),
      );
      expect(reset).toMatchObject({
        rateLimitPerMinute: null,
        ipAllowList: null,
        expiresAt: null,
        requireSignatureV2: false,
      });
      expect(json(await run('key', 'update', keyId, '--require-signature-v2', '--json'))).toMatchObject({
        requireSignatureV2: true,
      });
      expect(text(await run('key', 'get', keyId))).toMatch(/^signatures +version 2 only$/m);
      expect(json(await run('key', 'update', keyId, '--no-require-signature-v2', '--json'))).toMatchObject({
        requireSignatureV2: false,
      });
      await run('key', 'update', keyId, '--require-signature-v2');

      const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const rotated = await run('key', 'rotate', keyId, '--overlap-until', until);
      expect(text(rotated)).toMatch(/^API secret {2}sk_\S+$/m);
      expect(rotated.stdout).toContain(`\nold key ${keyId} keeps working until ${until}\n`);
      const newKey = /^API key {5}(hp_\w+)$/m.exec(rotated.stdout)?.[1];
      expect(json(await run('key', 'get', keyId, '--json'))).toMatchObject({ rotatedTo: newKey });
      // The successor keeps the signing policy; the old key cannot be rotated a second time.
      expect(json(await run('key', 'get', newKey ?? '', '--json'))).toMatchObject({ requireSignatureV2: true });
      const again = await run('key', 'rotate', keyId);
      expect(again.stderr).toContain('KEY_ALREADY_ROTATED');
    });

    it('key grant, grants, ungrant', async () => {
      expect(json(await run('key', 'grant', keyId, otherId, '--json'))).toMatchObject({ keyId, merchantId: otherId });
      expect(cells(text(await run('key', 'grants', keyId))).map((r) => r[0])).toEqual(['MERCHANT', otherId]);
      expect(text(await run('key', 'ungrant', keyId, otherId))).toBe(
        `API key ${keyId} can no longer act for merchant ${otherId}\n`,
      );
      expect(text(await run('key', 'grants', keyId))).toBe(
        `API key ${keyId} acts only for its own merchant (no grants)\n`,
      );
    });

    it('asset networks, wallet create, list, get, deactivate, activate', async () => {
      const networks = cells(text(await run('asset', 'networks', 'usdt')));
      expect(networks[0]).toEqual(['CHAIN', 'NAME', 'DEPOSITS', 'NETWORK ID']);
      expect(networks.slice(1).map((r) => r[0])).toEqual(expect.arrayContaining(['TRON', 'ETH']));

      walletId = json<{ id: string }>(
        await run('wallet', 'create', '--merchant', merchantId, '--asset', 'ETH', '--chain', 'ETH', '--json'),
      ).id;
      await run('wallet', 'create', '--merchant', otherId, '--asset', 'USDT', '--chain', 'TRON', '--inactive');
      const all = cells(text(await run('wallet', 'list')));
      expect(all[0]).toEqual(['ID', 'MERCHANT', 'ASSET', 'CHAIN', 'BALANCE', 'FROZEN', 'ACTIVE']);
      expect(all.slice(1).map((r) => [r[1], r[2], r[6]])).toEqual([
        [merchantId, 'ETH', 'yes'],
        [otherId, 'USDT', 'no'],
      ]);
      expect(json<{ items: unknown[] }>(await run('wallet', 'list', '--inactive', '--json')).items).toHaveLength(1);

      expect(text(await run('wallet', 'deactivate', walletId))).toBe(
        `wallet ${walletId} (ETH on ETH) is now inactive\n`,
      );
      expect(json(await run('wallet', 'activate', walletId, '--json'))).toMatchObject({
        id: walletId,
        merchantId,
        active: true,
        chain: { symbol: 'ETH' },
      });
    });

    it('postings: credit and freeze exact amounts, then list them with the balances after each', async () => {
      await run('wallet', 'credit', walletId, '12345678901234.123456789012345678', '--idempotency-key', 'dep-1');
      await run('wallet', 'freeze', walletId, '0.000000000000000001');
      const get = text(await run('wallet', 'get', walletId));
      expect(get).toMatch(/^balance +12345678901234\.123456789012345678$/m);
      expect(get).toMatch(/^available +12345678901234\.123456789012345677$/m);

      const postings = cells(text(await run('wallet', 'postings', walletId)));
      expect(postings[0]).toEqual(['AT', 'KIND', 'AMOUNT', 'BALANCE', 'FROZEN', 'IDEMPOTENCY KEY']);
      expect(postings[1]?.slice(1)).toEqual([
        'credit',
        '12345678901234.123456789012345678',
        '12345678901234.123456789012345678',
        '0',
        'dep-1',
      ]);
      const page = json<{ items: Record<string, unknown>[] }>(await run('wallet', 'postings', walletId, '--json'));
      expect(page.items[1]).toMatchObject({
        kind: 'freeze',
        amount: '0.000000000000000001',
        freezeAmountAfter: '0.000000000000000001',
      });
    });

    it('fee set, list, preview, delete; settlement and rates', async () => {
      await run('fee', 'set', '--currency', 'USDT', '--percent', '1.5', '--min', '1');
      const override = json<{ id: string }>(
        await run('fee', 'set', '--currency', 'EUR', '--fixed', '0.5', '--merchant', merchantId, '--json'),
      );
      expect(text(await run('settlement', 'set', 'EUR', 'USDT', '--merchant', merchantId))).toBe(
        `fees for EUR are charged in USDT (merchant ${merchantId})\n`,
      );
      expect(text(await run('rate', 'set', 'EUR', 'USDT', '1.0842'))).toBe('rate set: 1 EUR = 1.0842 USDT\n');

      const fees = cells(text(await run('fee', 'list')));
      expect(fees[0]).toEqual(['ID', 'SCHEDULE', 'CURRENCY', 'FROM', 'RULE', 'MIN', 'ON-CHAIN']);
      expect(fees.slice(1).map((r) => [r[1], r[2], r[4]])).toEqual([
        ['default', 'USDT', '1.5 %'],
        [merchantId, 'EUR', 'fixed 0.5'],
      ]);
      expect(json<{ items: unknown[] }>(await run('fee', 'list', '--default', '--json')).items).toHaveLength(1);
      expect(cells(text(await run('settlement', 'list')))[1]?.slice(0, 3)).toEqual([merchantId, 'EUR', 'USDT']);
      expect(cells(text(await run('rate', 'list')))[1]?.slice(0, 4)).toEqual(['EUR', 'USDT', '1.0842', 'manual']);

      const preview = json(await run('fee', 'preview', '--merchant', merchantId, '100', 'eur', '--json'));
      expect(preview).toMatchObject({
        originalCurrency: 'EUR',
        currency: 'USDT',
        rate: '1.0842',
        convertedAmount: '108.42',
        fee: '0.5',
        scheduleSource: 'merchant',
      });
      expect(text(await run('fee', 'preview', '--merchant', merchantId, '100', 'EUR'))).toMatch(
        /^tier +from 0 EUR up \(the merchant's own schedule\)$/m,
      );

      expect(text(await run('fee', 'delete', override.id))).toBe(`deleted fee tier ${override.id}\n`);
      expect(json(await run('fee', 'list', '--merchant', merchantId, '--json'))).toEqual({
        items: [],
        nextCursor: null,
      });
    });

    it('audit list: every change above, by this operator, filterable', async () => {
      const page = json<{ items: { operator: string; action: string; objectId: string }[] }>(
        await run('audit', 'list', '--limit', '200', '--json'),
      );
      expect(new Set(page.items.map((e) => e.operator))).toEqual(new Set([target.operator]));
      expect(page.items.map((e) => e.action)).toEqual(
        expect.arrayContaining([
          'merchant.create',
          'merchant.suspend',
          'api_key.rotate',
          'api_key.grant',
          'wallet.deactivate',
          'fee.delete',
          'rate.set',
        ]),
      );

      const merchant = cells(
        text(await run('audit', 'list', '--object-id', otherId, '--operator', target.operator, '--since', '1h')),
      );
      expect(merchant[0]).toEqual(['AT', 'OPERATOR', 'ACTION', 'OBJECT', 'REQUEST ID']);
      expect(merchant.slice(1).map((r) => r[2])).toEqual([
        'merchant.create',
        'merchant.update',
        'merchant.suspend',
        'merchant.resume',
      ]);
      expect(merchant[1]?.slice(1, 4)).toEqual([target.operator, 'merchant.create', `merchant ${otherId}`]);
      expect(merchant[1]?.[4]).toMatch(target.requestId);
      expect(text(await run('audit', 'list', '--action', 'merchant.create', '--since', '2999-01-01'))).toBe(
        'no audit entries match\n',
      );
    });
  });
}
