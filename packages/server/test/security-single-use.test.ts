import { randomBytes } from 'node:crypto';
import { SCOPES, signV2 } from '@hostpay/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { createServices, type Services } from '../src/services.js';
import { dropPostgresSchema } from '../src/store/postgres.js';
import { postgresAvailable, redisAvailable, TEST_DATABASE_URL, TEST_REDIS_URL } from './helpers.js';
import { createFixture, type HttpFixture, type TestKey } from './http-helpers/fixture.js';
import { expectError, issueToken, requestToken, unixSeconds } from './http-helpers/requests.js';
import { balances, payoutWorld } from './payouts/world.js';

/**
 * Issue 42 item 1: a signature on a state-changing merchant request is usable once. A captured
 * `POST /api/v1/cp/payouts` sent again with the same timestamp and signature, with a new
 * Idempotency-Key or none, is 409 SIGNATURE_REUSED and freezes nothing; with its own
 * Idempotency-Key it replays the stored answer. The same on rotate-secret (a body-less write,
 * whose credentials the verified cache keeps). On SQLite, PostgreSQL, PostgreSQL + Redis, and
 * across two instances sharing the store or Redis.
 */
const P = '/api/v1/cp/payouts';
const W = '/api/v1/cp/webhook-endpoints';

interface Stack {
  label: string;
  /** Extra configuration: the store and Redis the instances share. */
  config: Partial<Config>;
  redisPrefix?: string;
  cleanup?: () => Promise<void>;
}

function stacks(): Stack[] {
  const out: Stack[] = [
    { label: 'SQLite', config: {} },
    // Redis configured but unreachable: the store decides (cluster/used-signatures.ts).
    {
      label: 'SQLite with Redis unreachable',
      config: { redisUrl: 'redis://127.0.0.1:1', redisPrefix: 'hp-test-down:' },
    },
  ];
  if (postgresAvailable) {
    const schema = `hp_test_${randomBytes(6).toString('hex')}`;
    out.push({
      label: 'PostgreSQL',
      config: { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema },
      cleanup: () => dropPostgresSchema(TEST_DATABASE_URL, schema),
    });
  }
  if (postgresAvailable && redisAvailable) {
    const schema = `hp_test_${randomBytes(6).toString('hex')}`;
    const redisPrefix = `hp-test-sig-${randomBytes(4).toString('hex')}:`;
    out.push({
      label: 'PostgreSQL + Redis',
      config: { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema, redisUrl: TEST_REDIS_URL, redisPrefix },
      redisPrefix,
      cleanup: () => dropPostgresSchema(TEST_DATABASE_URL, schema),
    });
  }
  return out;
}

/** A request signed once (version 2, bearer), as a merchant's backend sends it and a proxy logs it. */
function signed(fx: HttpFixture, key: TestKey, token: string, method: string, url: string, body = '') {
  const timestamp = unixSeconds(fx.now());
  const headers: Record<string, string> = {
    'api-key': key.apiKey,
    timestamp,
    'signature-version': '2',
    signature: signV2(key.apiSecret, timestamp, method, url, body),
    authorization: `Bearer ${token}`,
  };
  if (body !== '') headers['content-type'] = 'application/json';
  return { method: method as 'POST', url, headers, ...(body === '' ? {} : { payload: body }) };
}

type Captured = ReturnType<typeof signed>;
const send = (app: FastifyInstance, req: Captured, extra: Record<string, string> = {}) =>
  app.inject({ ...req, headers: { ...req.headers, ...extra } });
const replayed = (res: LightMyRequestResponse) => res.headers['idempotent-replayed'] === 'true';

for (const stack of stacks()) {
  describe(`single-use signatures on ${stack.label}`, () => {
    let fx: HttpFixture;
    let key: TestKey;
    let token: string;
    let walletId: string;
    let destinationId: string;
    let endpointId: string;
    const payoutCount = async () =>
      Number(
        (
          await fx.services.store.db
            .selectFrom('payouts')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('wallet_id', '=', walletId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    beforeAll(async () => {
      fx = await createFixture({ sandbox: true, ...stack.config });
      const world = await payoutWorld(fx.services, { name: 'Replay Target' });
      ({ walletId, destinationId } = world);
      key = await fx.createKey(world.merchantId, { scopes: [...SCOPES] });
      token = await issueToken(fx, key);
      const created = await send(
        fx.app,
        signed(fx, key, token, 'POST', W, '{"url":"http://127.0.0.1:9/hooks","description":"replay target"}'),
      );
      expect(created.statusCode, created.body).toBe(201);
      endpointId = (created.json() as { result: { id: string } }).result.id;
    });
    afterAll(async () => {
      await fx?.close();
      await stack.cleanup?.();
    });

    it('a captured payout replayed with a new Idempotency-Key or none: 409 SIGNATURE_REUSED, nothing frozen; with its own key: the stored answer', async () => {
      const body = JSON.stringify({ walletId, amount: '1', destinationId });
      const capture = signed(fx, key, token, 'POST', P, body);
      const first = await send(fx.app, capture, { 'idempotency-key': 'pay-1' });
      expect(first.statusCode, first.body).toBe(201);
      const after = await balances(fx.services, walletId);
      expect(Number(after.frozen)).toBeGreaterThan(0);
      const count = await payoutCount();

      for (const extra of [{ 'idempotency-key': 'pay-2' }, {}, { 'idempotency-key': 'pay-3' }]) {
        const err = expectError(await send(fx.app, capture, extra), 409, 'SIGNATURE_REUSED');
        expect(err.message).toContain('fresh timestamp');
      }
      expect(await balances(fx.services, walletId)).toEqual(after);
      expect(await payoutCount()).toBe(count);

      // Where it was decided: Redis when reachable, else the store.
      const rows = await fx.services.store.db
        .selectFrom('used_signatures')
        .select('expires_ms')
        .where('signature', '=', capture.headers.signature!)
        .execute();
      expect(rows).toHaveLength(stack.redisPrefix === undefined ? 1 : 0);
      const again = await send(fx.app, capture, { 'idempotency-key': 'pay-1' });
      expect(again.statusCode).toBe(201);
      expect(replayed(again)).toBe(true);
      expect(again.body).toBe(first.body);
      expect(await payoutCount()).toBe(count);

      // A refused replay did not keep the key it named: the merchant's own next request may use it.
      const next = signed(fx, key, token, 'POST', P, JSON.stringify({ walletId, amount: '2', destinationId }));
      const own = await send(fx.app, next, { 'idempotency-key': 'pay-2' });
      expect(own.statusCode, own.body).toBe(201);
      expect(replayed(own)).toBe(false);
      expect(await payoutCount()).toBe(count + 1);
    });

    it('rotate-secret replayed (body-less, its credentials cached): 409, no secret in the answer, the secret unchanged', async () => {
      const url = `${W}/${endpointId}/rotate-secret`;
      const capture = signed(fx, key, token, 'POST', url);
      const first = await send(fx.app, capture);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.body).toMatch(/whsec_/);
      const sealed = () =>
        fx.services.store.db
          .selectFrom('webhook_endpoints')
          .select(['secret_sealed', 'previous_secret_sealed'])
          .where('id', '=', endpointId)
          .executeTakeFirstOrThrow();
      const before = await sealed();
      for (const extra of [{}, { 'idempotency-key': 'rot-x' }]) {
        const res = await send(fx.app, capture, extra);
        expectError(res, 409, 'SIGNATURE_REUSED');
        expect(res.body).not.toMatch(/whsec_/);
      }
      // The same target with its query spelled otherwise is the same signature.
      const spelled = { ...capture, url: `${url}?` };
      expectError(await send(fx.app, spelled), 409, 'SIGNATURE_REUSED');
      expect(await sealed()).toEqual(before);
    });

    it('reads and the token endpoint are not single-use', async () => {
      const read = signed(fx, key, token, 'GET', P);
      for (let i = 0; i < 2; i++) expect((await send(fx.app, read)).statusCode).toBe(200);
      // Two workers asking for a token in the same second send byte-identical requests (docs/api.md).
      const headers = { ...signed(fx, key, token, 'POST', '/api/v1/auth/token').headers };
      delete headers.authorization;
      for (let i = 0; i < 2; i++) {
        const res = await fx.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers });
        expect(res.statusCode, res.body).toBe(200);
      }
      expect((await requestToken(fx, key)).statusCode).toBe(200);
    });

    if (stack.config.databaseUrl !== undefined) {
      it('across two instances: a write accepted by one is refused by the other', async () => {
        const second = await otherInstance(fx.config);
        try {
          const body = JSON.stringify({ walletId, amount: '3', destinationId });
          const capture = signed(fx, key, token, 'POST', P, body);
          expect((await send(fx.app, capture)).statusCode).toBe(201);
          const frozen = await balances(fx.services, walletId);
          expectError(await send(second.app, capture), 409, 'SIGNATURE_REUSED');
          expectError(
            await send(second.app, capture, { 'idempotency-key': 'other-instance' }),
            409,
            'SIGNATURE_REUSED',
          );
          expect(await balances(fx.services, walletId)).toEqual(frozen);
          const redisKey = `${stack.redisPrefix}sig:${key.apiKey}:${capture.headers.signature}`;
          const rows = await fx.services.store.db
            .selectFrom('used_signatures')
            .selectAll()
            .where('signature', '=', capture.headers.signature!)
            .execute();
          if (stack.redisPrefix === undefined) expect(rows).toHaveLength(1);
          else {
            // Decided in Redis, which both instances share; the store was not asked.
            expect(rows).toHaveLength(0);
            const redis = new Redis(TEST_REDIS_URL);
            try {
              expect(await redis.exists(redisKey)).toBe(1);
              const ttl = await redis.pttl(redisKey);
              expect(ttl).toBeGreaterThan(0);
              expect(ttl).toBeLessThanOrEqual((fx.config.timestampToleranceSeconds + 2) * 1000);
            } finally {
              redis.disconnect();
            }
          }
        } finally {
          await second.close();
        }
      });
    }
  });
}

/** A second instance over the same store (and Redis): its own services, caches and app. */
async function otherInstance(config: Config): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const services: Services = await createServices(config, { now: Date.now });
  const app = await buildApp({
    config,
    services: services.merchant,
    admin: services.admin,
    features: services,
    rateLimiter: services.shared.rateLimiter,
    logger: false,
  });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await services.close();
    },
  };
}
