import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptResult } from '../src/features/webhooks/sender.js';
import { WebhookSender } from '../src/features/webhooks/sender.js';
import { dropPostgresSchema, openPostgresStore } from '../src/store/postgres.js';
import { createServices, type Services } from '../src/services.js';
import { checkoutCall, configureChains } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { crashableStore, drain, merchantCall, Receiver } from './http-helpers/webhooks.js';
import { describeStores, postgresAvailable, TEST_DATABASE_URL } from './helpers.js';

/**
 * The worker's promises: one slow endpoint delays no other, a worker that dies mid-delivery
 * loses nothing (its lease expires and the delivery goes out again with the same webhook-id),
 * and several instances share the endpoints without sending anything twice.
 */
const E = '/api/v1/cp/webhook-endpoints';

describeStores('webhook worker', (dialect) => {
  describe('one slow endpoint never delays another', () => {
    let fx: HttpFixture;
    let slow: Receiver;
    let fast: Receiver;
    beforeAll(async () => {
      // A server's defaults: 10 s timeout, wake-ups on commit, 250 ms poll.
      fx = await createFixture({ sandbox: true }, {}, dialect);
      await configureChains(fx.services);
      slow = await Receiver.start();
      fast = await Receiver.start();
      // The slow endpoint sleeps past the 10 s timeout: it never answers while the test runs.
      slow.answer = () => undefined;
    });
    afterAll(async () => {
      await slow.close();
      await fast.close();
      await fx.close();
    });

    it('the fast endpoint receives within 1 s while the slow one still holds its first delivery', async () => {
      const ids: string[] = [];
      for (const rx of [slow, fast]) {
        const created = await merchantCall(fx, fx.demo, 'POST', E, { url: rx.url });
        expect(created.statusCode).toBe(201);
        ids.push((JSON.parse(created.body) as { result: { id: string } }).result.id);
      }
      fx.services.webhooks.worker.start();
      for (let i = 0; i < 3; i++) {
        const committed = Date.now();
        const res = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', {
          amount: String(10 + i),
          currency: 'USDT',
          paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
        });
        expect(res.statusCode).toBe(201);
        const got = await fast.waitFor(i + 1, 1000);
        expect(got[i]!.at - committed).toBeLessThan(1000);
      }
      // The slow endpoint got its first event and is still on it: nothing after it was sent there.
      await slow.waitFor(1, 1000);
      expect(slow.received).toHaveLength(1);
      const pending = await fx.services.store.db
        .selectFrom('webhook_deliveries')
        .select('status')
        .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
        .where('webhook_endpoints.id', '=', ids[0]!)
        .execute();
      expect(pending.map((p) => p.status)).toEqual(['pending', 'pending', 'pending']);
    });
  });

  describe('a worker that dies mid-delivery loses nothing', () => {
    let fx: HttpFixture;
    let rx: Receiver;
    beforeAll(async () => {
      fx = await createFixture({ sandbox: true }, {}, dialect);
      rx = await Receiver.start();
    });
    afterAll(async () => {
      await rx.close();
      await fx.close();
    });

    it('its lease expires and another worker sends the same event with the same webhook-id', async () => {
      const endpoint = JSON.parse((await merchantCall(fx, fx.demo, 'POST', E, { url: rx.url })).body).result as {
        id: string;
      };
      const ping = JSON.parse((await merchantCall(fx, fx.demo, 'POST', `${E}/${endpoint.id}/test`)).body).result as {
        eventId: string;
      };
      const { store } = fx.services;
      const realSender = new WebhookSender({ sandbox: true, resolve: async () => [] });
      // The first worker's request reaches the receiver, then the process "dies": its send never
      // returns, so nothing is recorded and the lease is never released or renewed.
      const dead = crashableStore(store);
      const dying = fx.services.webhooks.spawnWorker({
        store: dead.store,
        sender: {
          send: (url: string, h: Record<string, string>, body: string) =>
            realSender.send(url, h, body, 2000).then(() => new Promise<AttemptResult>(() => undefined)),
        } as unknown as WebhookSender,
      });
      void dying.tick();
      await rx.waitFor(1);
      dead.crash();
      const survivor = fx.services.webhooks.worker;
      await drain(survivor);
      expect(rx.received).toHaveLength(1); // the lease is still live: nobody else sends
      fx.clock.offsetMs += 61_000;
      await drain(survivor);
      expect(rx.received).toHaveLength(2);
      expect(rx.received.map((r) => r.headers['webhook-id'])).toEqual([ping.eventId, ping.eventId]);
      const delivery = await store.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('event_id', '=', ping.eventId)
        .executeTakeFirstOrThrow();
      expect(delivery.status).toBe('succeeded');
      realSender.close();
    });

    it('a lease taken and abandoned before sending is taken over the same way', async () => {
      const endpoint = JSON.parse(
        (await merchantCall(fx, fx.demo, 'POST', E, { url: rx.url, description: 'second' })).body,
      ).result as { id: string };
      const ping = JSON.parse((await merchantCall(fx, fx.demo, 'POST', `${E}/${endpoint.id}/test`)).body).result as {
        eventId: string;
      };
      const dead = crashableStore(fx.services.store);
      const abandoned = fx.services.webhooks.spawnWorker({
        store: dead.store,
        sender: { send: () => new Promise<AttemptResult>(() => undefined) } as unknown as WebhookSender,
      });
      expect(await abandoned.claim(10)).toEqual([endpoint.id]);
      dead.crash();
      const before = rx.received.length;
      await drain(fx.services.webhooks.worker);
      expect(rx.received.length).toBe(before);
      fx.clock.offsetMs += 61_000;
      await drain(fx.services.webhooks.worker);
      expect(rx.received.slice(before).map((r) => r.headers['webhook-id'])).toEqual([ping.eventId]);
    });
  });

  describe('a send that outlasts the lease', () => {
    let fx: HttpFixture;
    let rx: Receiver;
    beforeAll(async () => {
      // A 3 s lease (the shortest HOSTPAY_WEBHOOK_LEASE_SECONDS takes), renewed every second.
      fx = await createFixture({ sandbox: true }, { webhooks: { worker: { leaseMs: 3000 } } }, dialect);
      rx = await Receiver.start();
    });
    afterAll(async () => {
      await rx.close();
      await fx.close();
    });

    it('is not sent again by another worker: the heartbeat keeps the lease while the request is in flight', async () => {
      const endpoint = JSON.parse((await merchantCall(fx, fx.demo, 'POST', E, { url: rx.url })).body).result as {
        id: string;
      };
      const ping = JSON.parse((await merchantCall(fx, fx.demo, 'POST', `${E}/${endpoint.id}/test`)).body).result as {
        eventId: string;
      };
      // The receiver answers only after twice the lease.
      const held: (() => void)[] = [];
      rx.answer = (_r, res) => held.push(() => res.writeHead(200).end('ok'));
      const first = fx.services.webhooks.worker;
      const serving = drain(first);
      await rx.waitFor(1);
      const other = fx.services.webhooks.spawnWorker();
      const until = Date.now() + 6500;
      while (Date.now() < until) {
        expect(await other.claim(10)).toEqual([]);
        await new Promise((r) => setTimeout(r, 250));
      }
      for (const answer of held) answer();
      await serving;
      expect(rx.received.map((r) => r.headers['webhook-id'])).toEqual([ping.eventId]);
      const delivery = await fx.services.store.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('event_id', '=', ping.eventId)
        .executeTakeFirstOrThrow();
      expect(delivery.status).toBe('succeeded');
    }, 15_000);
  });
});

describe('a commit wakes the workers: nothing waits for the poll', () => {
  it('SQLite: the worker of this process is woken by the transaction that queued the delivery', async () => {
    // The poll is a minute: only the wake-up can deliver within the test.
    const fx = await createFixture({ sandbox: true }, { webhooks: { worker: { pollMs: 60_000 } } });
    const rx = await Receiver.start();
    try {
      const m = fx.demo.merchantId;
      await fx.services.webhooks.endpoints.create(m, { url: rx.url });
      fx.services.webhooks.worker.start();
      const e = await fx.services.store.writeTransaction((trx) =>
        fx.services.outbox.append(trx, m, 'wallet.balance_changed', '{"n":1}', new Date(fx.now()).toISOString()),
      );
      await rx.waitFor(1, 5000);
      expect(rx.received[0]!.headers['webhook-id']).toBe(e.id);
    } finally {
      await rx.close();
      await fx.close();
    }
  });

  it.skipIf(!postgresAvailable)(
    "PostgreSQL: another instance's commit reaches this instance's worker through LISTEN/NOTIFY",
    async () => {
      const schema = `hp_test_${randomBytes(6).toString('hex')}`;
      const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-wh-'));
      const config = { dataDir, databaseUrl: TEST_DATABASE_URL, databaseSchema: schema, masterKey: '', sandbox: true };
      const rx = await Receiver.start();
      const worker = await createServices(config, {
        generateMasterKey: true,
        expirySweepMs: 0,
        webhooks: { worker: { pollMs: 60_000 } },
      });
      const writer = await createServices(config, { expirySweepMs: 0 });
      try {
        const m = (await writer.admin.createMerchant('Woken', { operator: 'test' })).id;
        await writer.webhooks.endpoints.create(m, { url: rx.url });
        worker.webhooks.worker.start();
        for (let i = 0; i < 3; i++) {
          const e = await writer.store.writeTransaction((trx) =>
            writer.outbox.append(trx, m, 'wallet.balance_changed', `{"n":${i}}`, new Date().toISOString()),
          );
          await rx.waitFor(i + 1, 5000);
          expect(rx.received[i]!.headers['webhook-id']).toBe(e.id);
        }
      } finally {
        await worker.close();
        await writer.close();
        await rx.close();
        await dropPostgresSchema(TEST_DATABASE_URL, schema);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});

describe.skipIf(!postgresAvailable)('several instances on PostgreSQL', () => {
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-wh-'));
  const instances: Services[] = [];
  let rx: Receiver;
  beforeAll(async () => {
    rx = await Receiver.start();
    const config = { dataDir, databaseUrl: TEST_DATABASE_URL, databaseSchema: schema, masterKey: '', sandbox: true };
    for (let i = 0; i < 2; i++) {
      const store = await openPostgresStore(TEST_DATABASE_URL, { schema });
      instances.push(
        await createServices(config, {
          generateMasterKey: true,
          store,
          expirySweepMs: 0,
          webhooks: { worker: { pollMs: 10, batch: 5 } },
        }),
      );
    }
  });
  afterAll(async () => {
    for (const s of instances) await s.close();
    await rx.close();
    await dropPostgresSchema(TEST_DATABASE_URL, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('share the endpoints with FOR UPDATE SKIP LOCKED leases: every event once, in sequence order per endpoint', async () => {
    const [a, b] = instances as [Services, Services];
    const ctx = { operator: 'test' };
    const merchants = [
      (await a.admin.createMerchant('PG One', ctx)).id,
      (await a.admin.createMerchant('PG Two', ctx)).id,
    ];
    for (const m of merchants)
      for (let i = 0; i < 2; i++) await a.webhooks.endpoints.create(m, { url: `${rx.url}/${m}/${i}` });
    a.webhooks.worker.start();
    b.webhooks.worker.start();
    const sent: string[] = [];
    for (let i = 0; i < 30; i++) {
      const m = merchants[i % 2]!;
      const at = new Date().toISOString();
      const writer = i % 3 === 0 ? a : b;
      const e = await writer.store.writeTransaction((trx) =>
        writer.outbox.append(trx, m, 'wallet.balance_changed', `{"n":${i}}`, at),
      );
      sent.push(e.id);
    }
    await rx.waitFor(60, 10_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.received).toHaveLength(60);
    const byEndpoint = new Map<string, number[]>();
    for (const r of rx.received)
      byEndpoint.set(r.path, [
        ...(byEndpoint.get(r.path) ?? []),
        (JSON.parse(r.body) as { sequence: number }).sequence,
      ]);
    expect(byEndpoint.size).toBe(4);
    for (const seqs of byEndpoint.values()) expect(seqs).toEqual([...Array(15).keys()].map((k) => k + 1));
    const ids = rx.received.map((r) => String(r.headers['webhook-id']));
    for (const id of sent) expect(ids.filter((x) => x === id)).toHaveLength(2);
    const statuses = await a.store.db.selectFrom('webhook_deliveries').select('status').execute();
    expect(statuses.every((d) => d.status === 'succeeded')).toBe(true);
  });
});
