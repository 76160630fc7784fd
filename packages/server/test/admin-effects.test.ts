import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminCaller,
  createAdminFixture,
  errorOf,
  resultOf,
  type AdminFixture,
  type MerchantKey,
} from './http-helpers/admin-fixture.js';
import { describeStores } from './helpers.js';

/**
 * What admin writes do to merchant requests, seen from the merchant side at once (no restart,
 * no cache delay): revocation, rotation, IP allow-lists, suspension, grants. And the trail they
 * leave: an audit entry per write, no secret anywhere but the one creation answer.
 */
describeStores('admin effects', (dialect) => {
  let fx: AdminFixture;
  let merchantId: string;
  beforeAll(async () => {
    fx = await createAdminFixture(dialect);
    merchantId = resultOf<{ id: string }>(
      await fx.call('POST', '/merchants', { body: { name: 'Effects Shop' } }),
      201,
    ).id;
    await fx.call('POST', `/merchants/${merchantId}/wallets`, { body: { asset: 'USDT', chain: 'TRON' } });
  });
  afterAll(() => fx.close());

  const WALLETS = '/api/v1/cp/wallets';
  const newKey = async (body: object = {}): Promise<MerchantKey & { id: string }> =>
    resultOf(await fx.call('POST', `/merchants/${merchantId}/keys`, { body }), 201);

  describe('effects on merchant requests', () => {
    it('revocation is seen by the very next merchant request', async () => {
      const key = await newKey();
      expect((await fx.merchantGet(key, WALLETS)).statusCode).toBe(200);
      resultOf(await fx.call('POST', `/keys/${key.id}/revoke`));
      errorOf(await fx.merchantGet(key, WALLETS), 403, 'KEY_REVOKED');
    });

    it('rotation: the old key works until overlapUntil, then 403 KEY_EXPIRED; the new key works', async () => {
      const old = await newKey();
      const overlapUntil = new Date(fx.now() + 60_000).toISOString();
      const { new: fresh } = resultOf(await fx.call('POST', `/keys/${old.id}/rotate`, { body: { overlapUntil } }), 201);
      expect((await fx.merchantGet(old, WALLETS)).statusCode).toBe(200);
      expect((await fx.merchantGet(fresh, WALLETS)).statusCode).toBe(200);
      fx.clock.offsetMs += 61_000;
      try {
        errorOf(await fx.merchantGet(old, WALLETS), 403, 'KEY_EXPIRED');
        expect((await fx.merchantGet(fresh, WALLETS)).statusCode).toBe(200);
      } finally {
        fx.clock.offsetMs -= 61_000;
      }
    });

    it('an expiry set by PATCH applies from the next request', async () => {
      const key = await newKey();
      resultOf(
        await fx.call('PATCH', `/keys/${key.id}`, { body: { expiresAt: new Date(fx.now() - 1000).toISOString() } }),
      );
      errorOf(await fx.merchantGet(key, WALLETS), 403, 'KEY_EXPIRED');
      resultOf(await fx.call('PATCH', `/keys/${key.id}`, { body: { expiresAt: null } }));
      expect((await fx.merchantGet(key, WALLETS)).statusCode).toBe(200);
    });

    it('an IP allow-list set by PATCH: IPv4, IPv6 and IPv4-mapped client addresses', async () => {
      const key = await newKey();
      resultOf(
        await fx.call('PATCH', `/keys/${key.id}`, { body: { ipAllowList: ['203.0.113.0/24', '2001:db8::/32'] } }),
      );
      const cases: [string, boolean][] = [
        ['203.0.113.7', true],
        ['198.51.100.1', false],
        ['2001:db8:1::5', true],
        ['2001:db9::1', false],
        ['::ffff:203.0.113.9', true],
        ['::ffff:198.51.100.1', false],
      ];
      for (const [address, allowed] of cases) {
        const res = await fx.merchantGet(key, WALLETS, address);
        if (allowed) expect(res.statusCode, `${address}: ${res.body}`).toBe(200);
        else errorOf(res, 403, 'IP_NOT_ALLOWED');
      }
      resultOf(await fx.call('PATCH', `/keys/${key.id}`, { body: { ipAllowList: null } }));
      expect((await fx.merchantGet(key, WALLETS, '198.51.100.1')).statusCode).toBe(200);
    });

    it('narrowing scopes by PATCH applies to tokens already issued', async () => {
      const key = await newKey();
      resultOf(await fx.call('PATCH', `/keys/${key.id}`, { body: { scopes: ['fees:read'] } }));
      errorOf(await fx.merchantGet(key, WALLETS), 403, 'SCOPE_MISSING');
    });

    it('suspend -> 403 MERCHANT_SUSPENDED for its keys; resume -> they work again', async () => {
      const key = await newKey();
      resultOf(await fx.call('POST', `/merchants/${merchantId}/suspend`));
      try {
        errorOf(await fx.merchantGet(key, WALLETS), 403, 'MERCHANT_SUSPENDED');
      } finally {
        resultOf(await fx.call('POST', `/merchants/${merchantId}/resume`));
      }
      expect((await fx.merchantGet(key, WALLETS)).statusCode).toBe(200);
    });

    it('a grant lets a platform key act for a sub-merchant until it is withdrawn', async () => {
      const key = await newKey();
      const sub = resultOf(await fx.call('POST', '/merchants', { body: { name: 'Sub' } }), 201).id as string;
      errorOf(await fx.merchantGet(key, `${WALLETS}?merchantId=${sub}`), 403, 'MERCHANT_FORBIDDEN');
      resultOf(await fx.call('POST', `/keys/${key.id}/grants`, { body: { merchantId: sub } }), 201);
      expect((await fx.merchantGet(key, `${WALLETS}?merchantId=${sub}`)).statusCode).toBe(200);
      resultOf(await fx.call('DELETE', `/keys/${key.id}/grants/${sub}`));
      errorOf(await fx.merchantGet(key, `${WALLETS}?merchantId=${sub}`), 403, 'MERCHANT_FORBIDDEN');
    });

    it('a credit posted by an operator is in the next wallet listing', async () => {
      const key = await newKey();
      const wallet = resultOf(await fx.call('GET', `/wallets?merchantId=${merchantId}`)).items[0];
      const before = JSON.parse((await fx.merchantGet(key, WALLETS)).body).result[0].amount as number;
      resultOf(
        await fx.call('POST', `/wallets/${wallet.id}/postings`, { body: { kind: 'credit', amount: '12.5' } }),
        201,
      );
      expect(JSON.parse((await fx.merchantGet(key, WALLETS)).body).result[0].amount).toBe(before + 12.5);
    });
  });

  describe('audit trail and secrets', () => {
    it('every write endpoint leaves an audit entry naming the operator and the request; no secret in audit, logs or reads', async () => {
      const lines: string[] = [];
      const stream = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
      const app = await fx.buildApp({ logger: { level: 'trace', stream } });
      const call = adminCaller(() => app);
      const step = async (action: string, method: string, path: string, body?: object) => {
        const res = await call(method, path, body === undefined ? {} : { body });
        expect(res.statusCode, `${method} ${path}: ${res.body}`).toBeLessThan(300);
        return { action, requestId: res.headers['x-request-id'] as string, result: JSON.parse(res.body).result };
      };
      const steps = [];
      const m = await step('merchant.create', 'POST', '/merchants', { name: 'Audited' });
      const sub = await step('merchant.create', 'POST', '/merchants', { name: 'Audited Sub' });
      const id = m.result.id as string;
      steps.push(m, sub);
      steps.push(await step('merchant.update', 'PATCH', `/merchants/${id}`, { name: 'Audited 2' }));
      steps.push(await step('merchant.suspend', 'POST', `/merchants/${id}/suspend`));
      steps.push(await step('merchant.resume', 'POST', `/merchants/${id}/resume`));
      const key = await step('api_key.create', 'POST', `/merchants/${id}/keys`, {});
      steps.push(key);
      steps.push(await step('api_key.update', 'PATCH', `/keys/${key.result.id}`, { label: 'x' }));
      steps.push(await step('api_key.grant', 'POST', `/keys/${key.result.id}/grants`, { merchantId: sub.result.id }));
      steps.push(await step('api_key.ungrant', 'DELETE', `/keys/${key.result.id}/grants/${sub.result.id}`));
      const rotated = await step('api_key.rotate', 'POST', `/keys/${key.result.id}/rotate`, {});
      steps.push(rotated);
      steps.push(await step('api_key.revoke', 'POST', `/keys/${rotated.result.new.id}/revoke`));
      const wallet = await step('wallet.create', 'POST', `/merchants/${id}/wallets`, { asset: 'BTC', chain: 'BTC' });
      steps.push(wallet);
      steps.push(await step('wallet.deactivate', 'POST', `/wallets/${wallet.result.id}/deactivate`));
      steps.push(await step('wallet.activate', 'POST', `/wallets/${wallet.result.id}/activate`));
      steps.push(
        await step('wallet.credit', 'POST', `/wallets/${wallet.result.id}/postings`, { kind: 'credit', amount: '1' }),
      );
      const fee = await step('fee.set', 'PUT', '/fees', {
        currency: 'BTC',
        isPercentage: false,
        value: '0.0001',
        merchantId: id,
      });
      steps.push(fee);
      steps.push(await step('fee.delete', 'DELETE', `/fees/${fee.result.id}`));
      steps.push(await step('rate_spread.set', 'PUT', '/rate-spread', { percent: '0.5' }));
      steps.push(
        await step('settlement.set', 'PUT', '/settlement-currencies', {
          currency: 'EUR',
          settlementCurrency: 'USDT',
          merchantId: id,
        }),
      );
      steps.push(await step('rate.set', 'PUT', '/rates', { base: 'EUR', quote: 'USDT', rate: '1.08' }));

      const audit = await call('GET', '/audit?operator=alice&limit=200');
      const entries = resultOf(audit).items as { action: string; operator: string; requestId: string }[];
      for (const s of steps) {
        expect(
          entries.some((e) => e.action === s.action && e.operator === 'alice' && e.requestId === s.requestId),
          s.action,
        ).toBe(true);
      }

      const secrets = [key.result.apiSecret, rotated.result.new.apiSecret] as string[];
      const reads = [
        audit.body,
        (await call('GET', `/keys/${key.result.id}`)).body,
        (await call('GET', `/keys/${rotated.result.new.id}`)).body,
        (await call('GET', `/keys?merchantId=${id}`)).body,
      ];
      expect(lines.length).toBeGreaterThan(steps.length);
      for (const secret of secrets) {
        expect(secret).toMatch(/^sk_/);
        for (const text of [...reads, ...lines]) expect(text).not.toContain(secret);
      }
      // Operator tokens are not logged either.
      expect(lines.join('\n')).not.toMatch(/alice-[0-9a-f]{10}/);
    });

    it('a stored idempotent answer holding a secret is sealed in the store', async () => {
      const res = await fx.call('POST', `/merchants/${merchantId}/keys`, { body: {}, idempotencyKey: 'sealed-key' });
      const { apiSecret } = resultOf(res, 201);
      const rows = await fx.services.store.db
        .selectFrom('admin_idempotency')
        .selectAll()
        .where('key', '=', 'sealed-key')
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.body).not.toContain(apiSecret);
      const replay = await fx.call('POST', `/merchants/${merchantId}/keys`, { body: {}, idempotencyKey: 'sealed-key' });
      expect(replay.body).toBe(res.body);
    });
  });
});
