import { Decimal } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/demo/seed.js';
import type { Services } from '../src/services.js';
import { DIALECTS, tempServices, type TempEnv } from './helpers.js';
import { configureChains, isTableWalk } from './http-helpers/checkouts.js';

/**
 * Item 3: concurrent transfers, expiry and cancel racing on one checkout end in exactly one valid
 * state, with money credited once. On PostgreSQL two services over the same schema (two pools:
 * two instances) race. SQLite is one process by design (docs/deploy.md): its calls race inside
 * that process, serialised by the store's one writer, and the outcome must still hold.
 */
interface Checkout {
  id: string;
  status: string;
  paymentOptions: { chain: string; asset: string; address: string; fee: { toString(): string } }[];
  timeline: { status: string }[];
}

describe.each(DIALECTS)('checkout races on %s', (dialect) => {
  let env: TempEnv;
  let a: Services;
  let b: Services;
  let merchantId: string;
  const clock = { offsetMs: 0 };
  const now = () => Date.now() + clock.offsetMs;

  beforeAll(async () => {
    env = await tempServices(dialect, { now, expirySweepMs: 0 });
    merchantId = (await seedDemo(env.services, env.dataDir)).merchantId;
    await configureChains(env.services, 1);
    a = env.services;
    b = dialect === 'postgres' ? await env.reopen() : a;
  });
  afterAll(async () => {
    if (b !== a) await b.close();
    await env.cleanup();
  });

  const create = async (amount: string) =>
    (await a.checkouts.create(merchantId, {
      amount,
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    })) as unknown as Checkout;
  const credits = (id: string) =>
    env.services.store.db
      .selectFrom('ledger_postings')
      .selectAll()
      .where('idempotency_key', '=', `checkout:${id}`)
      .execute();

  it('20 confirmed partial payments reported at once through both instances: settled once, credited exactly sum − fee', async () => {
    const c = await create('100');
    const o = c.paymentOptions[0]!;
    const reports = Array.from({ length: 20 }, (_, i) => ({
      chain: 'TRON',
      txHash: `0xrace${i}`,
      index: 0,
      toAddress: o.address,
      asset: 'USDT',
      amount: '5',
      confirmations: 1,
    }));
    // Each report twice, on the other instance too: repeats must change nothing.
    const results = await Promise.allSettled(
      [...reports, ...reports].map((r, i) => (i % 2 === 0 ? a : b).checkouts.reportTransfer(r, { operator: 'test' })),
    );
    expect(
      results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
    ).toEqual([]);
    const final = (await a.checkouts.get(undefined, c.id)) as unknown as Checkout;
    expect(final.status).toBe('settled');
    expect(isTableWalk(final.timeline.map((t) => t.status))).toBe(true);
    expect(final.timeline.filter((t) => t.status === 'settled')).toHaveLength(1);
    const posted = await credits(c.id);
    expect(posted).toHaveLength(1);
    expect(posted[0]!.amount).toBe(new Decimal(100).minus(o.fee.toString()).toFixed());
  });

  it('expiry, cancel and a payment racing on one checkout end in one valid state', async () => {
    for (let round = 0; round < 6; round++) {
      const c = await create('10');
      const o = c.paymentOptions[0]!;
      clock.offsetMs += 16 * 60_000;
      try {
        // The payment's block time is before expiry in even rounds (on time), after in odd ones.
        const blockTime = new Date(now() - (round % 2 === 0 ? 20 * 60_000 : 0)).toISOString();
        const results = await Promise.allSettled([
          a.checkouts.expireDue(),
          b.checkouts.cancel(merchantId, c.id),
          b.checkouts.reportTransfer(
            {
              chain: 'TRON',
              txHash: `0xrace-x${round}`,
              index: 0,
              toAddress: o.address,
              asset: 'USDT',
              amount: '10',
              confirmations: 1,
              blockTime,
            },
            { operator: 'test' },
          ),
          a.checkouts.expireDue(),
        ]);
        for (const r of results)
          if (r.status === 'rejected') expect((r.reason as { code?: string }).code).toBe('CHECKOUT_STATE_CONFLICT');
        const final = (await a.checkouts.get(undefined, c.id)) as unknown as Checkout;
        const walk = final.timeline.map((t) => t.status);
        expect(isTableWalk(walk), walk.join(' → ')).toBe(true);
        // The payment is always recorded: the checkout either settled on time or waits for review.
        expect(['settled', 'needs_review']).toContain(final.status);
        expect(await credits(c.id)).toHaveLength(final.status === 'settled' ? 1 : 0);
      } finally {
        clock.offsetMs -= 16 * 60_000;
      }
    }
  });
});
