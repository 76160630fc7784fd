import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/demo/seed.js';
import type { Services } from '../src/services.js';
import pg from 'pg';
import { DIALECTS, TEST_DATABASE_URL, tempServices, waitFor, type TempEnv } from './helpers.js';
import { configureChains } from './http-helpers/checkouts.js';

/**
 * Checkout creates written in batches (issue 33; on PostgreSQL one statement per turn of the event
 * loop, features/checkouts/create-batch.ts): what the contract says of events and deliveries
 * still holds when many creates of one merchant race, on PostgreSQL through two instances. SQLite
 * runs the same assertions (its group commit: store/group-commit.ts) as the reference.
 */
describe.each(DIALECTS)('checkout creates in batches on %s', (dialect) => {
  let env: TempEnv;
  let a: Services;
  let b: Services;
  let merchantId: string;

  beforeAll(async () => {
    env = await tempServices(dialect, { expirySweepMs: 0 });
    merchantId = (await seedDemo(env.services, env.dataDir)).merchantId;
    await configureChains(env.services, 1);
    a = env.services;
    b = dialect === 'postgres' ? await env.reopen() : a;
  });
  afterAll(async () => {
    if (b !== a) await b.close();
    await env.cleanup();
  });

  const db = () => env.services.store.db;
  const create = (s: Services, i: number) =>
    s.checkouts.create(merchantId, {
      amount: String(10 + i),
      currency: 'USDT',
      orderId: `batch-${i}`,
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    }) as unknown as Promise<{ id: string; paymentOptions: { address: string }[] }>;
  const lastSequence = async () =>
    Number(
      (
        await db()
          .selectFrom('events')
          .select((eb) => eb.fn.max('sequence').as('last'))
          .where('merchant_id', '=', merchantId)
          .executeTakeFirst()
      )?.last ?? 0,
    );

  it('300 creates at once (both instances): one checkout.created each, numbered gap-free after the last, and a reader only ever sees a prefix of them', async () => {
    const before = await lastSequence();
    // A reader polling while the creates commit: the events it sees must always be before + 1 … before + n
    // with nothing missing (a later number visible before an earlier one committed would be a gap to it).
    let polling = true;
    const seen: { count: number; max: number }[] = [];
    const poller = (async () => {
      while (polling) {
        const row = await db()
          .selectFrom('events')
          .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('sequence').as('max')])
          .where('merchant_id', '=', merchantId)
          .where('sequence', '>', before)
          .executeTakeFirst();
        seen.push({ count: Number(row?.count ?? 0), max: Number(row?.max ?? before) });
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    const created = await Promise.all(Array.from({ length: 300 }, (_, i) => create(i % 2 === 0 ? a : b, i)));
    polling = false;
    await poller;

    const events = await db()
      .selectFrom('events')
      .select(['sequence', 'type', 'data', 'checkout_id'])
      .where('merchant_id', '=', merchantId)
      .where('sequence', '>', before)
      .orderBy('sequence')
      .execute();
    expect(events.map((e) => Number(e.sequence))).toEqual(Array.from({ length: 300 }, (_, i) => before + 1 + i));
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['checkout.created']));
    // One event per checkout, carrying the checkout as answered.
    const ids = events.map((e) => (JSON.parse(e.data) as { object: { id: string } }).object.id).sort();
    expect(ids).toEqual(created.map((c) => c.id).sort());
    // …and the checkout it is about in its own column (?checkoutId=, a checkout's deliveries).
    expect(events.map((e) => e.checkout_id).sort()).toEqual(ids);
    // Every address once.
    expect(new Set(created.map((c) => c.paymentOptions[0]!.address)).size).toBe(300);
    for (const s of seen) expect(s.count, `a reader saw ${s.count} events up to ${s.max}`).toBe(s.max - before);
    expect(seen.length).toBeGreaterThan(1);
  }, 60_000);

  it("merchant text holding SQL quoting (dollar-quote tags, quotes, backslashes) is written byte for byte: the batch's values are inlined as dollar-quoted literals on PostgreSQL", async () => {
    const tricky = `$j$ $j0$ $$ it's "q" \\ \u00e9 \u{1F600} ${'$j1$'}`;
    // The answers as sent: the `checkout.created` event must hold exactly that text.
    const answers = await Promise.all(
      [a, b].map((s, i) =>
        s.checkouts.createJson(merchantId, {
          amount: '12',
          currency: 'USDT',
          orderId: `${tricky}-${i}`,
          description: tricky,
          metadata: { note: tricky },
          paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
        }),
      ),
    );
    for (const [i, answer] of answers.entries()) {
      const id = (JSON.parse(answer) as { id: string }).id;
      const row = await db()
        .selectFrom('checkouts')
        .select(['order_id', 'description', 'metadata'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        order_id: `${tricky}-${i}`,
        description: tricky,
        metadata: JSON.stringify({ note: tricky }),
      });
      const event = await db()
        .selectFrom('events')
        .select('data')
        .where('merchant_id', '=', merchantId)
        .where('data', 'like', `%${id}%`)
        .executeTakeFirstOrThrow();
      expect(event.data).toBe(`{"object":${answer}}`);
    }
  });

  it('queues one delivery per subscribed, enabled endpoint, with the event and its sequence, and none for the others', async () => {
    const at = new Date().toISOString();
    const endpoint = (id: string, enabled: string, disabled = 0) => ({
      id,
      merchant_id: merchantId,
      url_sealed: 'unused',
      url_shown: 'http://127.0.0.1:9/hook',
      description: null,
      enabled_events: enabled,
      disabled,
      disabled_reason: disabled === 1 ? 'merchant' : null,
      disabled_at: disabled === 1 ? at : null,
      secret_sealed: 'unused',
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      last_success_at: null,
      failing_since: null,
      lease_owner: null,
      lease_expires_at: null,
      created_at: at,
      updated_at: at,
    });
    await db()
      .insertInto('webhook_endpoints')
      .values([
        endpoint(`whe_all_${dialect}`, '[]'),
        endpoint(`whe_created_${dialect}`, '["checkout.paid","checkout.created"]'),
        endpoint(`whe_paid_${dialect}`, '["checkout.paid"]'),
        endpoint(`whe_off_${dialect}`, '[]', 1),
      ])
      .execute();
    try {
      const created = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i % 2 === 0 ? a : b, i)));
      const events = await db()
        .selectFrom('events')
        .select(['id', 'sequence', 'data'])
        .where('merchant_id', '=', merchantId)
        .where('type', '=', 'checkout.created')
        .orderBy('sequence', 'desc')
        .limit(20)
        .execute();
      expect(events.map((e) => (JSON.parse(e.data) as { object: { id: string } }).object.id).sort()).toEqual(
        created.map((c) => c.id).sort(),
      );
      const deliveries = await db()
        .selectFrom('webhook_deliveries')
        .select(['id', 'endpoint_id', 'event_id', 'sequence', 'status', 'merchant_id'])
        .where(
          'event_id',
          'in',
          events.map((e) => e.id),
        )
        .execute();
      expect(deliveries).toHaveLength(40);
      for (const e of events) {
        const mine = deliveries.filter((d) => d.event_id === e.id);
        expect(mine.map((d) => d.endpoint_id).sort()).toEqual([`whe_all_${dialect}`, `whe_created_${dialect}`]);
        for (const d of mine) {
          expect(Number(d.sequence)).toBe(Number(e.sequence));
          expect(d.merchant_id).toBe(merchantId);
          expect(d.id).toMatch(/^whd_[0-9a-z]{22}$/);
        }
      }
      expect(new Set(deliveries.map((d) => d.id)).size).toBe(40);
      // PostgreSQL: the commit wakes the delivery workers ('') and the merchant's event streams ('e:<merchant>').
      if (dialect === 'postgres') {
        const listener = new pg.Client({
          connectionString: TEST_DATABASE_URL,
          options: `-c search_path=${env.schema}`,
        });
        await listener.connect();
        try {
          const channel = (await listener.query<{ c: string }>("select 'hpwh_' || md5(current_schema()) as c")).rows[0]!
            .c;
          const heard: string[] = [];
          listener.on('notification', (n) => {
            if (n.channel === channel) heard.push(n.payload ?? '');
          });
          await listener.query(`listen "${channel}"`);
          await create(a, 99);
          await waitFor(() => heard.includes('') && heard.includes(`e:${merchantId}`), 'both wake-ups');
        } finally {
          await listener.end();
        }
      }
    } finally {
      // The worker must not keep sending to these after the test.
      await db().updateTable('webhook_endpoints').set({ disabled: 1 }).where('merchant_id', '=', merchantId).execute();
    }
  }, 60_000);
});
