import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminIdempotency } from '../src/http/idempotency.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { randomBytes } from 'node:crypto';
import { DIALECTS, type Dialect } from './helpers.js';
import {
  adminCaller,
  BOB,
  createAdminFixture,
  errorOf,
  resultOf,
  type AdminFixture,
} from './http-helpers/admin-fixture.js';

/** Idempotency-Key on admin writes: what is replayed, what conflicts, what is never stored. */
describe.each(DIALECTS)('Idempotency-Key on %s', (dialect: Dialect) => {
  let fx: AdminFixture;
  let merchantId: string;
  beforeEach(async () => {
    fx = await createAdminFixture(dialect);
    merchantId = resultOf<{ id: string }>(await fx.call('POST', '/merchants', { body: { name: 'Idem Shop' } }), 201).id;
  });
  afterEach(() => fx.close());
  const count = async (table: 'merchants' | 'ledger_postings' | 'api_keys') =>
    Number(
      (
        await fx.services.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('the same request again replays the first answer; the same JSON spelled differently is the same request', async () => {
    const first = await fx.call('POST', `/merchants/${merchantId}/keys`, {
      body: '{"label":"pos","scopes":["fees:read"]}',
      idempotencyKey: 'k1',
    });
    resultOf(first, 201);
    const replay = await fx.call('POST', `/merchants/${merchantId}/keys`, {
      body: '{ "label": "pos",\n "scopes": ["fees:read"] }',
      idempotencyKey: 'k1',
    });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['cache-control']).toBe('no-store');
    expect(replay.body).toBe(first.body);
    expect(await count('api_keys')).toBe(1);
  });

  it('the same key with another body, path or method -> 409 IDEMPOTENCY_CONFLICT; no key -> no replay', async () => {
    resultOf(await fx.call('PATCH', `/merchants/${merchantId}`, { body: { name: 'A' }, idempotencyKey: 'k2' }));
    errorOf(
      await fx.call('PATCH', `/merchants/${merchantId}`, { body: { name: 'B' }, idempotencyKey: 'k2' }),
      409,
      'IDEMPOTENCY_CONFLICT',
    );
    errorOf(
      await fx.call('POST', `/merchants/${merchantId}/suspend`, { idempotencyKey: 'k2' }),
      409,
      'IDEMPOTENCY_CONFLICT',
    );
    errorOf(
      await fx.call('POST', '/merchants', { body: { name: 'A' }, idempotencyKey: 'k2' }),
      409,
      'IDEMPOTENCY_CONFLICT',
    );
    const plain = await fx.call('PATCH', `/merchants/${merchantId}`, { body: { name: 'A' } });
    expect(plain.headers['idempotent-replayed']).toBeUndefined();
    expect(resultOf(await fx.call('GET', `/audit?objectId=${merchantId}&action=merchant.update`)).items).toHaveLength(
      2,
    );
  });

  it('keys belong to an operator: bob may use the key alice used', async () => {
    resultOf(await fx.call('POST', '/merchants', { body: { name: 'Alice' }, idempotencyKey: 'shared' }), 201);
    const bob = await fx.call('POST', '/merchants', { body: { name: 'Bob' }, idempotencyKey: 'shared', token: BOB });
    expect(resultOf(bob, 201).name).toBe('Bob');
    expect(bob.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a 4xx business answer is stored and replayed', async () => {
    const wallet = resultOf(
      await fx.call('POST', `/merchants/${merchantId}/wallets`, { body: { asset: 'USDT', chain: 'TRON' } }),
      201,
    );
    const body = { kind: 'debit', amount: '5' };
    const first = await fx.call('POST', `/wallets/${wallet.id}/postings`, { body, idempotencyKey: 'pay-1' });
    errorOf(first, 422, 'INSUFFICIENT_FUNDS');
    resultOf(await fx.call('POST', `/wallets/${wallet.id}/postings`, { body: { kind: 'credit', amount: '10' } }), 201);
    const replay = await fx.call('POST', `/wallets/${wallet.id}/postings`, { body, idempotencyKey: 'pay-1' });
    expect(replay.statusCode).toBe(422);
    expect(replay.body).toBe(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('a 5xx is not stored: the retry runs again', async () => {
    let failures = 1;
    const admin = fx.services.admin;
    const flaky = await fx.buildApp({
      admin: {
        ...admin,
        createMerchant: (name, ctx) =>
          failures-- > 0 ? Promise.reject(new Error('disk on fire')) : admin.createMerchant(name, ctx),
      },
    });
    const call = adminCaller(() => flaky);
    const failed = await call('POST', '/merchants', { body: { name: 'Retry' }, idempotencyKey: 'k5' });
    errorOf(failed, 500, 'INTERNAL');
    expect(failed.body).not.toContain('disk on fire');
    const retried = await call('POST', '/merchants', { body: { name: 'Retry' }, idempotencyKey: 'k5' });
    expect(resultOf(retried, 201).name).toBe('Retry');
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('postings: the header is the posting key, and 10 concurrent identical postings credit once', async () => {
    const wallet = resultOf(
      await fx.call('POST', `/merchants/${merchantId}/wallets`, { body: { asset: 'ETH', chain: 'ETH' } }),
      201,
    );
    const post = () =>
      fx.call('POST', `/wallets/${wallet.id}/postings`, {
        body: { kind: 'credit', amount: '0.000000000000000001' },
        idempotencyKey: 'deposit:42',
      });
    const answers = await Promise.all(Array.from({ length: 10 }, post));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(resultOf(answers[0]!, 201).posting.idempotencyKey).toBe('deposit:42');
    expect(await count('ledger_postings')).toBe(1);
    expect((await fx.call('GET', `/wallets/${wallet.id}`)).body).toContain('"amount":0.000000000000000001,');
    // Without the header, the body's key alone still protects the ledger (200, replayed).
    const bodyKeyed = () =>
      fx.call('POST', `/wallets/${wallet.id}/postings`, {
        body: { kind: 'credit', amount: '1', idempotencyKey: 'dep-43' },
      });
    const statuses = (await Promise.all(Array.from({ length: 10 }, bodyKeyed))).map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(await count('ledger_postings')).toBe(2);
  });

  it('the service: a duplicate waits for the first answer, times out with 409, and a released key runs again', async () => {
    const box = new SecretBox(randomBytes(32));
    const service = adminIdempotency({ store: fx.services.store, box }, { waitMs: 60 });
    const req = { method: 'POST', url: '/admin/v1/merchants', body: '{"name":"x"}' };
    expect(await service.begin('op', 'w1', req)).toEqual({ kind: 'claimed' });
    await expect(service.begin('op', 'w1', req)).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      details: { inProgress: true },
    });
    const waiting = service.begin('op', 'w1', req);
    await service.complete('op', 'w1', 201, '{"done":true}');
    expect(await waiting).toEqual({ kind: 'replay', status: 201, body: '{"done":true}' });
    await expect(service.begin('op', 'w1', { ...req, body: '{}' })).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
    });

    expect(await service.begin('op', 'w2', req)).toEqual({ kind: 'claimed' });
    await service.release('op', 'w2');
    expect(await service.begin('op', 'w2', req)).toEqual({ kind: 'claimed' });

    // Past the retention window an entry is forgotten: the key can be used afresh.
    const forgetful = adminIdempotency({ store: fx.services.store, box }, { retentionMs: -1 });
    expect(await forgetful.begin('op', 'w1', { ...req, body: '{}' })).toEqual({ kind: 'claimed' });
  });

  it('the service: two requests of one process racing for each of 200 keys, one claims and the other replays its answer', async () => {
    // On PostgreSQL the claim's insert and the waiter's read travel on two connections and are
    // answered in either order; the waiter must not take our fresh row for an orphan's.
    const service = adminIdempotency({ store: fx.services.store, box: new SecretBox(randomBytes(32)) });
    const req = { method: 'POST', url: '/admin/v1/merchants', body: '{"name":"race"}' };
    const race = (n: number) => {
      const run = async () => {
        const claim = await service.begin('op', `race-${n}`, req);
        if (claim.kind === 'claimed') {
          await new Promise((resolve) => setTimeout(resolve, 2));
          await service.complete('op', `race-${n}`, 201, `{"n":${n}}`);
        }
        return claim;
      };
      return Promise.all([run(), run()]);
    };
    const outcomes = [];
    // Eight keys at a time: sixteen requests, within the pool and its queue.
    for (let n = 0; n < 200; n += 8)
      outcomes.push(...(await Promise.all(Array.from({ length: 8 }, (_, i) => race(n + i)))));
    for (const [n, pair] of outcomes.entries()) {
      const kinds = pair.map((c) => c.kind).sort();
      expect(kinds, `key race-${n}`).toEqual(['claimed', 'replay']);
      expect(pair.find((c) => c.kind === 'replay')).toEqual({ kind: 'replay', status: 201, body: `{"n":${n}}` });
    }
  });
});
