import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/demo/seed.js';
import type { Services } from '../src/services.js';
import { DIALECTS, tempServices, type TempEnv } from './helpers.js';
import { configureChains } from './http-helpers/checkouts.js';

/**
 * spec/commerce.md, "Receipts": a settled checkout gets `RCPT-000001`, per merchant, in the
 * settlement transaction; numbers run 1..N with no gap and no duplicate when many checkouts
 * settle at once (on PostgreSQL through two instances, i.e. two pools over one database), and
 * an operator's settle from review takes the next one too. A checkout settled before receipt
 * numbers existed (migration 33) takes its number on its receipt's first read, once.
 */
interface Checkout {
  id: string;
  status: string;
  receiptNumber: string | null;
  receiptUrl: string | null;
  paymentOptions: { address: string }[];
}

describe.each(DIALECTS)('receipt numbers on %s', (dialect) => {
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

  const create = async (services: Services, merchant: string) =>
    (await services.checkouts.create(merchant, {
      amount: '10',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    })) as unknown as Checkout;
  const pay = (services: Services, c: Checkout, tx: string) =>
    services.checkouts.reportTransfer(
      {
        chain: 'TRON',
        txHash: tx,
        index: 0,
        toAddress: c.paymentOptions[0]!.address,
        asset: 'USDT',
        amount: '10',
        confirmations: 1,
      },
      { operator: 'test' },
    );
  const get = async (id: string) => (await a.checkouts.get(undefined, id)) as unknown as Checkout;

  it('an open checkout has none; 30 settling at once get RCPT-000001..30, each once, in the checkout and its event', async () => {
    const open = await create(a, merchantId);
    expect([open.receiptNumber, open.receiptUrl]).toEqual([null, null]);
    const checkouts = await Promise.all(Array.from({ length: 30 }, () => create(a, merchantId)));
    const results = await Promise.allSettled(checkouts.map((c, i) => pay(i % 2 === 0 ? a : b, c, `0xrcpt${i}`)));
    expect(
      results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
    ).toEqual([]);
    const settled = await Promise.all(checkouts.map((c) => get(c.id)));
    expect(settled.map((c) => c.status)).toEqual(settled.map(() => 'settled'));
    const numbers = settled.map((c) => c.receiptNumber!).sort();
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => `RCPT-${String(i + 1).padStart(6, '0')}`));
    for (const c of settled) expect(c.receiptUrl).toMatch(new RegExp(`/pay/${c.id}/receipt$`));
    expect((await get(open.id)).receiptNumber).toBeNull();
    // The checkout.settled event carries the number the row has.
    const events = await a.store.db
      .selectFrom('events')
      .select(['checkout_id', 'data'])
      .where('type', '=', 'checkout.settled')
      .where('merchant_id', '=', merchantId)
      .execute();
    expect(events.length).toBe(30);
    for (const e of events) {
      const row = settled.find((c) => c.id === e.checkout_id);
      if (row !== undefined) expect(JSON.parse(e.data).object.receiptNumber).toBe(row.receiptNumber);
    }
  });

  it('an operator settle from review takes the next number; another merchant starts at 1', async () => {
    const c = await create(a, merchantId);
    await a.checkouts.cancel(merchantId, c.id);
    const late = await pay(b, c, '0xrcpt-late');
    expect(late.checkout?.status).toBe('needs_review');
    expect((await get(c.id)).receiptNumber).toBeNull();
    const settled = (await b.checkouts.settleReview(c.id, {}, { operator: 'test' })) as unknown as Checkout;
    expect([settled.status, settled.receiptNumber]).toEqual(['settled', 'RCPT-000031']);
    const other = await a.admin.createMerchant('Other Shop', { operator: 'test' });
    const theirs = await create(a, other.id);
    await pay(a, theirs, '0xrcpt-other');
    expect((await get(theirs.id)).receiptNumber).toBe('RCPT-000001');
  });

  it('a checkout settled before receipt numbers existed takes one on its receipt’s first read: once, no gap, no duplicate', async () => {
    const shop = await a.admin.createMerchant('Old Shop', { operator: 'test' });
    const old = await Promise.all(Array.from({ length: 4 }, () => create(a, shop.id)));
    for (const [i, c] of old.entries()) await pay(a, c, `0xrcpt-old${i}`);
    // As a release before migration 33 left them: settled, no number, no counter row.
    await a.store.db
      .updateTable('checkouts')
      .set({ receipt_number: null })
      .where('merchant_id', '=', shop.id)
      .execute();
    await a.store.db.deleteFrom('receipt_counters').where('merchant_id', '=', shop.id).execute();
    expect([(await get(old[0]!.id)).receiptNumber, (await get(old[0]!.id)).receiptUrl]).toEqual([null, null]);
    // One settles after the upgrade: the counter starts at 1.
    const fresh = await create(a, shop.id);
    await pay(a, fresh, '0xrcpt-fresh');
    expect((await get(fresh.id)).receiptNumber).toBe('RCPT-000001');

    // Each old receipt read twice at once (on PostgreSQL once through each instance).
    const reads = await Promise.all(old.flatMap((c) => [a.pay.receipt(c.id), b.pay.receipt(c.id)]));
    const stored = await Promise.all(old.map((c) => get(c.id)));
    for (const [i, c] of stored.entries()) {
      // Both reads of a receipt show the one number the checkout now has.
      expect([reads[2 * i]?.receiptNumber, reads[2 * i + 1]?.receiptNumber]).toEqual([
        c.receiptNumber,
        c.receiptNumber,
      ]);
      expect(c.receiptUrl).toMatch(new RegExp(`/pay/${c.id}/receipt$`));
    }
    expect(stored.map((c) => c.receiptNumber).sort()).toEqual([
      'RCPT-000002',
      'RCPT-000003',
      'RCPT-000004',
      'RCPT-000005',
    ]);
    // A receipt read again takes nothing; an open checkout has no receipt and takes no number.
    expect((await a.pay.receipt(old[0]!.id))?.receiptNumber).toBe(stored[0]!.receiptNumber);
    const open = await create(a, shop.id);
    expect(await a.pay.receipt(open.id)).toBeUndefined();
    expect((await get(open.id)).receiptNumber).toBeNull();
    const next = await create(a, shop.id);
    await pay(b, next, '0xrcpt-next');
    expect((await get(next.id)).receiptNumber).toBe('RCPT-000006');
    // The payment page of an old settled checkout numbers it too, so its Paid screen links the receipt.
    await a.store.db.updateTable('checkouts').set({ receipt_number: null }).where('id', '=', next.id).execute();
    const seen = await a.pay.load(next.id);
    expect([seen?.receiptNumber, seen?.receiptUrl]).toEqual(['RCPT-000007', expect.stringMatching(/\/receipt$/)]);
    expect((await a.pay.load(next.id))?.receiptNumber).toBe('RCPT-000007');
  });
});
