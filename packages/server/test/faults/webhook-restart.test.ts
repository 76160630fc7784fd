import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTANCE_ID_FILE } from '../../src/cluster/instance.js';
import { createServices, type Services } from '../../src/services.js';
import { dropPostgresSchema } from '../../src/store/postgres.js';
import { Receiver } from '../http-helpers/webhooks.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { MASTER_KEY, postgresAvailable, TEST_DATABASE_URL, waitFor } from './world.js';

/**
 * Issue 32, item 4: webhooks resume at once after a crash. `hostpay serve` (default settings: the
 * 10 s lease) is killed with SIGKILL while a delivery is in flight and started again on the same
 * data directory: it is the same instance (its id kept in <dataDir>/instance-id), so it takes
 * back the lease of its earlier run at once and resends within a couple of seconds — not after
 * the lease (before: 60 s by default, 41–60 s without a webhook). On SQLite and PostgreSQL.
 */
const DIALECTS = postgresAvailable ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
if (!postgresAvailable) console.log('[faults] webhook restart: PostgreSQL not reachable, SQLite only');
/** Well below the default lease (10 s): the resend must not have waited for it. */
const RESUME_BUDGET_MS = 2000;

describe.each(DIALECTS)('webhooks after a kill -9 and a restart of the same instance (%s)', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-restart-'));
  // The writer below has a data dir of its own: it is not the instance under test.
  const writerDir = mkdtempSync(join(tmpdir(), 'hostpay-writer-'));
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  const pgEnv =
    dialect === 'postgres' ? { HOSTPAY_DATABASE_URL: TEST_DATABASE_URL, HOSTPAY_DATABASE_SCHEMA: schema } : {};
  const env: Record<string, string> = {
    HOSTPAY_DATA_DIR: dataDir,
    HOSTPAY_MASTER_KEY: MASTER_KEY,
    HOSTPAY_SANDBOX: 'true',
    HOSTPAY_LOG_LEVEL: 'warn',
    ...pgEnv,
  };
  let services: Services;
  let rx: Receiver;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    rx = await Receiver.start();
    services = await createServices(
      {
        dataDir: writerDir,
        masterKey: MASTER_KEY,
        sandbox: true,
        databaseUrl: dialect === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dataDir, 'hostpay.db')}`,
        databaseSchema: dialect === 'postgres' ? schema : '',
      },
      { expirySweepMs: 0 },
    );
  });
  afterAll(async () => {
    for (const s of servers) await s.kill();
    await services?.close();
    await rx?.close();
    if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(writerDir, { recursive: true, force: true });
  });

  it('the restarted instance takes its lease back at once and resends the same event', async () => {
    const merchantId = (await services.admin.createMerchant('Restart Shop', { operator: 'test' })).id;
    await services.webhooks.endpoints.create(merchantId, { url: rx.url });
    const held: ServerResponse[] = [];
    rx.answer = (_r, res) => held.push(res);

    const first = await startServerProcess(env);
    servers.push(first);
    const event = await services.store.writeTransaction((trx) =>
      services.outbox.append(
        trx,
        merchantId,
        'wallet.balance_changed',
        '{"object":"wallet"}',
        new Date().toISOString(),
      ),
    );
    await rx.waitFor(1, 10_000);
    const lease = await services.store.db
      .selectFrom('webhook_endpoints')
      .select(['lease_owner'])
      .executeTakeFirstOrThrow();
    const instanceId = readFileSync(join(dataDir, INSTANCE_ID_FILE), 'utf8').trim();
    expect(lease.lease_owner?.startsWith(`${instanceId}/`)).toBe(true);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const killedAt = performance.now();

    rx.answer = (_r, res) => res.writeHead(200).end('ok');
    const second = await startServerProcess(env);
    servers.push(second);
    const listeningAt = performance.now();
    await rx.waitFor(2, RESUME_BUDGET_MS + 10_000);
    const resumedMs = performance.now() - killedAt;
    // From the moment the restarted instance listens (its start-up takes seconds on a busy machine).
    const afterStartMs = performance.now() - listeningAt;
    expect(afterStartMs).toBeLessThan(RESUME_BUDGET_MS);
    const [a, b] = rx.received as [(typeof rx.received)[0], (typeof rx.received)[0]];
    expect(b.headers['webhook-id']).toBe(event.id);
    expect(b.body).toBe(a.body);
    await waitFor(
      'the delivery recorded as succeeded',
      async () =>
        (
          await services.store.db
            .selectFrom('webhook_deliveries')
            .select('status')
            .where('event_id', '=', event.id)
            .executeTakeFirstOrThrow()
        ).status === 'succeeded',
      10_000,
    );
    console.log(
      `[faults] webhook kill -9 + restart (${dialect}, default 10 s lease): resent ${afterStartMs.toFixed(0)} ms after the restarted instance listened, ${resumedMs.toFixed(0)} ms after the kill`,
    );
    for (const res of held) res.destroy();
  }, 60_000);
});
