import { ErrorEnvelope, SCOPES, sign, signV2 } from '@hostpay/protocol';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Services } from '../../src/services.js';
import { DIALECTS, tempServices, type Dialect } from '../helpers.js';
import { unixSeconds } from '../http-helpers/requests.js';
import { balances, ctx, payoutWorld, type PayoutWorld } from './world.js';

/**
 * The payout race of races.test.ts over HTTP, where a real merchant's backend races: 50 signed
 * `POST /api/v1/cp/payouts` at once against a wallet that funds 10 → exactly 10 answered 201,
 * 40 answered 422 INSUFFICIENT_FUNDS in the error envelope, exactly 10 × total frozen. The
 * route layer (token, signature, idempotency, the request's own transaction) must not let a
 * second request see money the first has already frozen. On PostgreSQL also from two apps over
 * two service instances on one database.
 */
const P = '/api/v1/cp/payouts';

describe.each(DIALECTS)('racing payout requests over HTTP on %s', (dialect: Dialect) => {
  let env: Awaited<ReturnType<typeof tempServices>>;
  let w: PayoutWorld;
  let key: { apiKey: string; apiSecret: string };
  const apps: FastifyInstance[] = [];
  const extra: Services[] = [];

  async function appOver(services: Services): Promise<FastifyInstance> {
    const config = loadConfig(
      {},
      {
        dataDir: env.dataDir,
        logLevel: 'silent',
        ...(dialect === 'postgres' ? { databaseUrl: env.databaseUrl, databaseSchema: env.schema! } : {}),
      },
    );
    const app = await buildApp({ config, services: services.merchant, features: services, logger: false });
    await app.ready();
    apps.push(app);
    return app;
  }

  /** A bearer token for the key, issued by `app` (v1 signature, as the token endpoint takes). */
  async function tokenFrom(app: FastifyInstance): Promise<string> {
    const timestamp = unixSeconds(Date.now());
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: { 'api-key': key.apiKey, timestamp, signature: sign(key.apiSecret, timestamp, '') },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { result: { accessToken: string } }).result.accessToken;
  }

  beforeEach(async () => {
    env = await tempServices(dialect);
    w = await payoutWorld(env.services);
    // Fifty requests in a moment from one key: its per-minute limit is not what is tested here.
    key = await env.services.admin.createApiKey(
      w.merchantId,
      { scopes: [...SCOPES], rateLimitPerMinute: 100_000 },
      ctx,
    );
  });
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.close();
    for (const s of extra.splice(0)) await s.close();
    await env.cleanup();
  });

  async function race(targets: FastifyInstance[]) {
    const tokens = await Promise.all(targets.map(tokenFrom));
    const body = JSON.stringify({ walletId: w.walletId, amount: '10', destinationId: w.destinationId });
    // Each its own second: the same write signed twice in one second is one signature, which the
    // server accepts once (SIGNATURE_REUSED); 50 s back stays inside the ±60 s window. The clock
    // is read once: read per request, a second boundary between two gave them the same second.
    const now = Number(unixSeconds(Date.now()));
    const requests = Array.from({ length: 50 }, (_, i) => {
      const timestamp = String(now - i);
      return targets[i % targets.length]!.inject({
        method: 'POST',
        url: P,
        headers: {
          'api-key': key.apiKey,
          timestamp,
          'signature-version': '2',
          signature: signV2(key.apiSecret, timestamp, 'POST', P, body),
          authorization: `Bearer ${tokens[i % targets.length]}`,
          'content-type': 'application/json',
          // Each its own request: a shared key would replay one answer instead of racing.
          'idempotency-key': `race-${i}`,
        },
        payload: body,
      });
    });
    const answers: LightMyRequestResponse[] = await Promise.all(requests);
    const accepted = answers.filter((r) => r.statusCode === 201);
    const refused = answers.filter((r) => r.statusCode === 422);
    const summary = answers.map((r) => `${r.statusCode} ${r.body.slice(0, 120)}`).join('\n');
    expect(accepted, summary).toHaveLength(10);
    expect(refused, summary).toHaveLength(40);
    for (const r of accepted) {
      const parsed = r.json() as { status: boolean; result: { status: string; total: string | number } };
      expect(parsed.status).toBe(true);
      expect(parsed.result.status).toBe('pending_approval');
      expect(String(parsed.result.total)).toBe('10');
    }
    for (const r of refused) {
      const envelope: unknown = r.json();
      expect(Value.Check(ErrorEnvelope, envelope), r.body).toBe(true);
      expect((envelope as ErrorEnvelope).status).toBe(false);
      expect((envelope as ErrorEnvelope).error.code).toBe('INSUFFICIENT_FUNDS');
    }
    expect(await balances(env.services, w.walletId)).toEqual({ amount: '100', frozen: '100' });
    const ids = accepted.map((r) => (r.json() as { result: { id: string } }).result.id);
    expect(new Set(ids).size).toBe(10);
    const rows = await env.services.store.db
      .selectFrom('payouts')
      .select('id')
      .where('merchant_id', '=', w.merchantId)
      .execute();
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
  }

  it('50 signed POSTs against a wallet that funds 10: exactly 10 answered 201, 40 answered 422 INSUFFICIENT_FUNDS, the freeze exact', async () => {
    await race([await appOver(env.services)]);
  });

  if (dialect === 'postgres')
    it('the same across two instances (two apps, two service sets) over one database', async () => {
      const second = await env.reopen();
      extra.push(second);
      await race([await appOver(env.services), await appOver(second)]);
    });
});
