import { CHECKOUT_PATHS } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres.js';
import type { Store } from '../../src/store/store.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import {
  ADMIN_TOKEN,
  adminPost,
  Merchant,
  merchantPost,
  postgresAvailable,
  seedPostgresSchema,
  TEST_DATABASE_URL,
  type Answer,
  type SeededSchema,
} from './world.js';

/**
 * Issue 32, item 2: settlements racing on PostgreSQL. A checkout already `processing` settles
 * under a final-confirmation transfer (it credits the wallet, then writes the balance event); a
 * checkout paid in one step writes its `processing` event, then credits the wallet. Both take the
 * merchant's event counter and the same wallet row: in opposite orders they deadlocked (40P01,
 * answered 500) and queued behind each other into 503s. One lock order (states.ts) and a bounded
 * retry of serialization failures inside the server: every report answers 2xx, each checkout
 * settles once, the wallet grows by exactly the sum of the credits.
 *
 * Rate: 60 requests at once against one instance with a pool of 10 — a burst the store absorbs
 * (a few hundred ms of work), not a sustained rate; see docs/deploy.md, "Fault tests".
 */
const N = 30;

describe.skipIf(!postgresAvailable)('settlements racing on PostgreSQL', () => {
  let seeded: SeededSchema;
  let store: Store;
  let server: ServerProcess;
  let merchant: Merchant;

  beforeAll(async () => {
    seeded = await seedPostgresSchema();
    store = await openPostgresStore(TEST_DATABASE_URL, { schema: seeded.schema });
    // Two confirmations: a first report moves a checkout to `processing`, the second settles it.
    await store.db.updateTable('chains').set({ confirmations_required: 2 }).where('symbol', '=', 'TRON').execute();
    server = await startServerProcess({
      ...seeded.serverEnv,
      HOSTPAY_ADMIN_TOKEN: ADMIN_TOKEN,
      HOSTPAY_SANDBOX: 'true',
    });
    merchant = new Merchant(server.url, seeded.demo);
    await merchant.login();
  }, 60_000);
  afterAll(async () => {
    await server?.kill();
    await store?.close();
    await seeded?.remove();
  });

  const create = async (): Promise<{ id: string; address: string; amountDue: string }> => {
    const res = await merchantPost(merchant, CHECKOUT_PATHS.checkouts, {
      amount: '10',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    expect(res.status, res.text).toBe(201);
    const c = res.body.result as { id: string; paymentOptions: { address: string; amountDue: number }[] };
    return { id: c.id, address: c.paymentOptions[0]!.address, amountDue: String(c.paymentOptions[0]!.amountDue) };
  };
  const transfer = (c: { id: string; address: string; amountDue: string }, confirmations: number) =>
    adminPost(server.url, '/admin/v1/transfers', {
      chain: 'TRON',
      txHash: `0x${c.id.slice(4)}`,
      index: 0,
      toAddress: c.address,
      asset: 'USDT',
      amount: c.amountDue,
      confirmations,
    });

  it(`${N} final confirmations racing ${N} one-step payments: no 500, no 503, each settled once`, async () => {
    const processing: Awaited<ReturnType<typeof create>>[] = [];
    const open: Awaited<ReturnType<typeof create>>[] = [];
    for (let i = 0; i < N; i++) {
      processing.push(await create());
      open.push(await create());
    }
    for (const c of processing) {
      const res = await transfer(c, 1);
      expect(res.status, res.text).toBe(201);
      expect(res.body.result.checkout.status).toBe('processing');
    }
    const wallet = () =>
      store.db
        .selectFrom('wallets as w')
        .innerJoin('assets as a', 'a.id', 'w.asset_id')
        .innerJoin('chains as c', 'c.id', 'w.chain_id')
        .select('w.amount')
        .where('w.merchant_id', '=', seeded.demo.merchantId)
        .where('a.symbol', '=', 'USDT')
        .where('c.symbol', '=', 'TRON')
        .executeTakeFirstOrThrow();
    const before = Number((await wallet()).amount);

    const answers: Answer[] = await Promise.all(
      Array.from({ length: 2 * N }, (_, i) =>
        i % 2 === 0
          ? transfer(processing[i >> 1]!, 2)
          : merchantPost(merchant, CHECKOUT_PATHS.simulatePayment.replace(':id', open[i >> 1]!.id), {
              asset: 'USDT',
              chain: 'TRON',
            }),
      ),
    );
    const refused = answers.filter((a) => a.status >= 300).map((a) => `${a.status} ${a.text}`);
    if (refused.length > 0)
      console.error(
        server
          .logs()
          .filter((l) => l.level >= 40)
          .slice(0, 5)
          .map((l) => JSON.stringify(l)),
      );
    expect(refused).toEqual([]);

    const ids = [...processing, ...open].map((c) => c.id);
    const rows = await store.db.selectFrom('checkouts').select(['id', 'status']).where('id', 'in', ids).execute();
    expect(rows.filter((r) => r.status !== 'settled')).toEqual([]);
    const settledTwice = await store.db
      .selectFrom('checkout_timeline')
      .select('checkout_id')
      .where('checkout_id', 'in', ids)
      .where('status', '=', 'settled')
      .groupBy('checkout_id')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(settledTwice).toEqual([]);
    const postings = await store.db
      .selectFrom('ledger_postings')
      .select(['idempotency_key', 'amount'])
      .where(
        'idempotency_key',
        'in',
        ids.map((id) => `checkout:${id}`),
      )
      .execute();
    expect(postings).toHaveLength(2 * N);
    const credited = postings.reduce((s, p) => s + Number(p.amount), 0);
    expect(Number((await wallet()).amount) - before).toBeCloseTo(credited, 6);
    console.log(
      `[faults] ${N} final confirmations racing ${N} one-step payments on PostgreSQL (one instance, pool 10, 60 requests at once): all 2xx, ${2 * N} settled once, wallet +${credited.toFixed(6)}`,
    );
  }, 120_000);
});
