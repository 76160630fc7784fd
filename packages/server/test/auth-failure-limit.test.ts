import { randomBytes } from 'node:crypto';
import { sign } from '@hostpay/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../src/cluster/redis.js';
import { RedisRateLimiter } from '../src/cluster/redis-rate-limiter.js';
import { createAdminFixture, type AdminFixture } from './http-helpers/admin-fixture.js';
import { dropRedisKeys, postgresAvailable, redisAvailable, TEST_REDIS_URL, type Dialect } from './helpers.js';

/**
 * The failed-authentication limit holds under concurrency: 200 bad requests sent at once from
 * one address get at most LIMIT answers that say "wrong credentials" (401); the rest are 429.
 * Merchant and operator failures are counted apart.
 */
const LIMIT = 30;
const BURST = 200;

type Counts = Record<number, number>;

async function burst(apps: FastifyInstance[], address: string, kind: 'merchant' | 'operator'): Promise<Counts> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const results = await Promise.all(
    Array.from({ length: BURST }, (_, i) => {
      const app = apps[i % apps.length]!;
      return kind === 'merchant'
        ? app.inject({
            method: 'POST',
            url: '/api/v1/auth/token',
            remoteAddress: address,
            headers: { 'api-key': `hp_guess${i}`, timestamp, signature: 'a'.repeat(64) },
          })
        : app.inject({
            method: 'GET',
            url: '/admin/v1/merchants',
            remoteAddress: address,
            headers: { authorization: `Bearer guess-${i}-${'x'.repeat(40)}` },
          });
    }),
  );
  const counts: Counts = {};
  for (const r of results) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  return counts;
}

function expectExact(counts: Counts): void {
  expect((counts[401] ?? 0) + (counts[429] ?? 0), JSON.stringify(counts)).toBe(BURST);
  expect(counts[401], JSON.stringify(counts)).toBe(LIMIT);
}

function suite(
  label: string,
  dialect: Dialect,
  setup: (fx: AdminFixture) => Promise<FastifyInstance[]>,
  cleanup: () => Promise<void> = async () => {},
): void {
  describe(label, () => {
    let fx: AdminFixture;
    let apps: FastifyInstance[];
    beforeAll(async () => {
      fx = await createAdminFixture(dialect, { authFailureLimitPerMinute: LIMIT });
      apps = await setup(fx);
    });
    afterAll(async () => {
      await fx?.close();
      await cleanup();
    });

    it(`${BURST} concurrent unknown API keys from one address: exactly ${LIMIT} x 401, the rest 429`, async () => {
      expectExact(await burst(apps, '198.51.100.1', 'merchant'));
    });

    it(`${BURST} concurrent bad operator tokens from one address: exactly ${LIMIT} x 401, the rest 429`, async () => {
      expectExact(await burst(apps, '198.51.100.2', 'operator'));
    });

    it('merchant and operator failures are counted apart', async () => {
      const address = '198.51.100.3';
      expectExact(await burst(apps, address, 'merchant'));
      // The merchant side is exhausted for this address; the operator side still answers.
      const ok = await apps[0]!.inject({
        method: 'GET',
        url: '/admin/v1/merchants',
        remoteAddress: address,
        headers: { authorization: `Bearer ${fx.config.adminTokens.split(',')[0]!.split(':')[1]}` },
      });
      expect(ok.statusCode, ok.body).toBe(200);
    });

    it('successful authentications do not use up the limit, even in a burst', async () => {
      const address = '198.51.100.4';
      const token = fx.config.adminTokens.split(',')[0]!.split(':')[1]!;
      // A legitimate burst larger than the limit is not refused: attempts wait for a slot.
      const good = await Promise.all(
        Array.from({ length: LIMIT * 3 }, (_, i) =>
          apps[i % apps.length]!.inject({
            method: 'GET',
            url: '/admin/v1/merchants',
            remoteAddress: address,
            headers: { authorization: `Bearer ${token}` },
          }),
        ),
      );
      expect(good.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
      for (let i = 0; i < 3; i++) {
        const r = await apps[0]!.inject({
          method: 'GET',
          url: '/admin/v1/merchants',
          remoteAddress: address,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(r.statusCode, r.body).toBe(200);
      }
      expectExact(await burst(apps, address, 'operator'));
    });

    it('a burst of valid merchant requests larger than the limit all gets through', async () => {
      const key = await fx.services.admin.createApiKey(
        (await fx.services.admin.createMerchant('Busy Shop', { operator: 'test' })).id,
        {},
        { operator: 'test' },
      );
      const timestamp = String(Math.floor(Date.now() / 1000));
      const headers = { 'api-key': key.apiKey, timestamp, signature: sign(key.apiSecret, timestamp, '') };
      const results = await Promise.all(
        Array.from({ length: LIMIT * 3 }, (_, i) =>
          apps[i % apps.length]!.inject({
            method: 'POST',
            url: '/api/v1/auth/token',
            remoteAddress: '198.51.100.5',
            headers,
          }),
        ),
      );
      expect(results.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
    });

    it('credentials accepted moments ago pass the gate even when the address is out of attempts; new ones do not', async () => {
      const address = '198.51.100.6';
      const key = await fx.services.admin.createApiKey(
        (await fx.services.admin.createMerchant('Shared NAT', { operator: 'test' })).id,
        {},
        { operator: 'test' },
      );
      const timestamp = String(Math.floor(Date.now() / 1000));
      const headers = { 'api-key': key.apiKey, timestamp, signature: sign(key.apiSecret, timestamp, '') };
      // A body-less request verified once (the token route takes no body here)...
      const first = await apps[0]!.inject({
        method: 'POST',
        url: '/api/v1/auth/token',
        remoteAddress: address,
        headers,
      });
      expect(first.statusCode, first.body).toBe(200);
      // ...then the address uses up its failed attempts...
      expectExact(await burst([apps[0]!], address, 'merchant'));
      // ...the same accepted credentials still pass (they cannot be a guess), on the instance that
      // verified them; a fresh signature from that address is turned away.
      const again = await apps[0]!.inject({
        method: 'POST',
        url: '/api/v1/auth/token',
        remoteAddress: address,
        headers,
      });
      expect(again.statusCode, again.body).toBe(200);
      const other = String(Number(timestamp) - 1);
      const fresh = await apps[0]!.inject({
        method: 'POST',
        url: '/api/v1/auth/token',
        remoteAddress: address,
        headers: { ...headers, timestamp: other, signature: sign(key.apiSecret, other, '') },
      });
      expect(fresh.statusCode, fresh.body).toBe(429);
    });
  });
}

suite('in-process (SQLite)', 'sqlite', async (fx) => [fx.app]);

describe.runIf(postgresAvailable)('PostgreSQL without Redis', () => {
  suite('one instance', 'postgres', async (fx) => [fx.app]);
});

describe.runIf(redisAvailable && postgresAvailable)('PostgreSQL with Redis, two instances', () => {
  const prefix = `hp_test_${randomBytes(4).toString('hex')}:`;
  const connections = [connectRedis(TEST_REDIS_URL, () => undefined), connectRedis(TEST_REDIS_URL, () => undefined)];
  suite(
    'requests spread over both',
    'postgres',
    async (fx) => {
      const a = await fx.buildApp({ rateLimiter: new RedisRateLimiter(connections[0]!, () => undefined, prefix) });
      const b = await fx.buildApp({ rateLimiter: new RedisRateLimiter(connections[1]!, () => undefined, prefix) });
      return [a, b];
    },
    async () => {
      await dropRedisKeys(connections[0], prefix);
      connections[1]!.disconnect();
    },
  );
});
