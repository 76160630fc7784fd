import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/services.js';
import { dropPostgresSchema, openPostgresStore } from '../../src/store/postgres.js';
import { DIALECTS, TEST_DATABASE_URL, type Dialect } from '../helpers.js';
import { Receiver } from '../http-helpers/webhooks.js';

/**
 * Fair delivery across merchants (issue 24 item 2). Merchant X has many endpoints that never
 * answer (each waits out the attempt timeout); merchant Y has one that answers at once. Scaled
 * down from the report (100 slots, 110 endpoints, 11 s answers) through the worker's settings:
 * 4 slots, 2 per merchant, 3 s timeout, 6 slow endpoints. Without the per-merchant share X held
 * every slot until its timeouts and Y's event waited for one of them.
 */
const SLOTS = 4;
const PER_MERCHANT = 2;
const TIMEOUT_MS = 3000;

describe.each(DIALECTS)('fair webhook delivery on %s', (dialect: Dialect) => {
  let services: Services;
  let dataDir: string;
  const schema = `hp_fair_${randomBytes(5).toString('hex')}`;
  const slow: Receiver[] = [];
  let fast: Receiver;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hostpay-fair-'));
    services = await createServices(
      {
        dataDir,
        masterKey: '',
        sandbox: true,
        ...(dialect === 'postgres'
          ? { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema }
          : { databaseUrl: '', databaseSchema: '' }),
      },
      {
        generateMasterKey: true,
        expirySweepMs: 0,
        ...(dialect === 'postgres' ? { store: await openPostgresStore(TEST_DATABASE_URL, { schema }) } : {}),
        webhooks: {
          worker: { maxEndpoints: SLOTS, maxPerMerchant: PER_MERCHANT, timeoutMs: TIMEOUT_MS, pollMs: 50 },
        },
      },
    );
    for (let i = 0; i < 2; i++) {
      const r = await Receiver.start();
      r.answer = () => undefined; // never answers: every attempt waits out the timeout
      slow.push(r);
    }
    fast = await Receiver.start();
  });
  afterAll(async () => {
    await services?.webhooks.worker.stop();
    for (const r of [...slow, fast]) await r?.close();
    await services?.close();
    if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const commit = (merchantId: string) =>
    services.store.writeTransaction((trx) =>
      services.outbox.append(trx, merchantId, 'wallet.balance_changed', '{"id":"wal_fair"}', new Date().toISOString()),
    );

  it("merchant Y's delivery stays fast while merchant X's slow endpoints wait out their timeouts", async () => {
    const ctx = { operator: 'test' };
    const x = (await services.admin.createMerchant('X', ctx)).id;
    const y = (await services.admin.createMerchant('Y', ctx)).id;
    for (let i = 0; i < 6; i++)
      await services.webhooks.endpoints.create(x, { url: `${slow[i % 2]!.url.replace('/hooks', '')}/x${i}` });
    await services.webhooks.endpoints.create(y, { url: fast.url });
    await commit(x);
    services.webhooks.worker.start();
    // X's endpoints are being sent to (and will not answer before the timeout).
    await slow[0]!.waitFor(1, 2000);
    await slow[1]!.waitFor(1, 2000);
    // X holds its share, not every slot.
    expect(services.webhooks.worker.busy).toBeLessThanOrEqual(PER_MERCHANT);

    const committed = Date.now();
    const event = await commit(y);
    const [got] = await fast.waitFor(1, 5 * TIMEOUT_MS);
    expect(got!.headers['webhook-id']).toBe(event.id);
    // Well inside one of X's timeouts: Y did not wait for a slot X held.
    expect(got!.at - committed).toBeLessThan(TIMEOUT_MS / 2);
    // X's other endpoints get their turn as its first ones time out.
    const sent = () => slow[0]!.received.length + slow[1]!.received.length;
    const deadline = Date.now() + 3 * TIMEOUT_MS;
    while (sent() < 2 * PER_MERCHANT && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(sent()).toBe(2 * PER_MERCHANT);
  });
});
