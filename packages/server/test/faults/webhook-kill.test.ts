import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/services.js';
import { dropPostgresSchema } from '../../src/store/postgres.js';
import { Receiver } from '../http-helpers/webhooks.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { MASTER_KEY, postgresAvailable, TEST_DATABASE_URL, waitFor } from './world.js';

/**
 * "A worker killed with SIGKILL mid-delivery loses nothing (the event is sent again with the same
 * webhook-id)" (issue 14), with real processes: `hostpay serve` delivers to a receiver that holds
 * the request open, is killed with SIGKILL while the request is in flight, and a second
 * `hostpay serve` on the same store — another instance (HOSTPAY_INSTANCE_ID) — sends the same
 * event again, byte for byte, once the first one's lease (3 s here, HOSTPAY_WEBHOOK_LEASE_SECONDS)
 * has expired. On SQLite and PostgreSQL. (The same instance restarted takes its lease back at
 * once: webhook-restart.test.ts.)
 */
const LEASE_SECONDS = 3;
const DIALECTS = postgresAvailable ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
if (!postgresAvailable) console.log('[faults] webhook kill -9: PostgreSQL not reachable, SQLite only');

describe.each(DIALECTS)('a webhook worker killed with SIGKILL mid-delivery (%s)', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-kill-'));
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  const env: Record<string, string> = {
    HOSTPAY_DATA_DIR: dataDir,
    HOSTPAY_MASTER_KEY: MASTER_KEY,
    HOSTPAY_SANDBOX: 'true',
    HOSTPAY_WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
    HOSTPAY_LOG_LEVEL: 'warn',
    ...(dialect === 'postgres' ? { HOSTPAY_DATABASE_URL: TEST_DATABASE_URL, HOSTPAY_DATABASE_SCHEMA: schema } : {}),
  };
  const config = {
    dataDir,
    masterKey: MASTER_KEY,
    sandbox: true,
    databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : '',
    databaseSchema: dialect === 'postgres' ? schema : '',
  };
  let services: Services;
  let rx: Receiver;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    rx = await Receiver.start();
    // This process only writes (its worker is never started); the servers deliver.
    services = await createServices(config, { expirySweepMs: 0 });
  });
  afterAll(async () => {
    for (const s of servers) await s.kill();
    await services?.close();
    await rx?.close();
    if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a second server sends the event again with the same webhook-id and body; it is recorded once, as delivered', async () => {
    const merchantId = (await services.admin.createMerchant('Kill Shop', { operator: 'test' })).id;
    const endpoint = await services.webhooks.endpoints.create(merchantId, { url: rx.url });
    const held: ServerResponse[] = [];
    rx.answer = (_r, res) => held.push(res); // never answered: the delivery is in flight when the worker dies

    // Two instances (their own ids): the second may not take the first's lease before it expires.
    const first = await startServerProcess({ ...env, HOSTPAY_INSTANCE_ID: 'first' });
    servers.push(first);
    const event = await services.store.writeTransaction((trx) =>
      services.outbox.append(
        trx,
        merchantId,
        'wallet.balance_changed',
        '{"object":"wallet","amount":1234.567890123456789012}',
        new Date().toISOString(),
      ),
    );
    await rx.waitFor(1, 10_000);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const killedAt = Date.now();

    // Nothing was recorded for the request the killed worker had in flight.
    const pending = await services.store.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('event_id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ status: 'pending', attempts: 0 });

    rx.answer = (_r, res) => res.writeHead(200).end('ok');
    const second = await startServerProcess({ ...env, HOSTPAY_INSTANCE_ID: 'second' });
    servers.push(second);
    await rx.waitFor(2, 20_000);
    // Not before the dead worker's lease expired (no one sends while it may still be alive).
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual((LEASE_SECONDS - 1) * 1000);

    const [a, b] = rx.received as [(typeof rx.received)[0], (typeof rx.received)[0]];
    expect(a.headers['webhook-id']).toBe(event.id);
    expect(b.headers['webhook-id']).toBe(event.id);
    expect(b.body).toBe(a.body);
    const wh = new Webhook(endpoint.secret!);
    for (const r of [a, b]) expect(() => wh.verify(r.body, r.headers as Record<string, string>)).not.toThrow();

    await waitFor(
      'the delivery recorded as succeeded',
      async () => {
        const d = await services.store.db
          .selectFrom('webhook_deliveries')
          .select('status')
          .where('event_id', '=', event.id)
          .executeTakeFirstOrThrow();
        return d.status === 'succeeded';
      },
      10_000,
    );
    const attempts = await services.store.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('event_id', '=', event.id)
      .execute();
    expect(attempts.map((x) => [x.status_code, x.succeeded])).toEqual([[200, 1]]);
    expect(rx.received).toHaveLength(2);
    for (const res of held) res.destroy();
  }, 60_000);
});
