import { SCOPES } from '@hostpay/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers.js';
import type { HttpFixture, TestKey } from '../http-helpers/fixture.js';
import { get, reportsEnv } from './env.js';

/**
 * GET /api/v1/cp/search on both stores: every kind of value finds its object for its merchant,
 * and never another merchant's (each kind tried with the other merchant's values); EVM addresses
 * and hashes ignore case and `0x`; amounts compare as numbers; each kind needs its scope.
 */
const ctx = { operator: 'test' };
const EVM_DEST = '0xdAC17F958D2ee523a2206206994597C13D831ec7';

interface Shop {
  key: TestKey;
  checkoutId: string;
  orderId: string;
  address: string;
  txHash: string;
  amount: string;
  payoutId: string;
  payoutTx: string;
  payoutAmount: string;
}

async function shop(fx: HttpFixture, name: string, n: number): Promise<Shop> {
  const { services } = fx;
  const merchantId = await fx.createMerchant(name);
  const key = await fx.createKey(merchantId, { scopes: [...SCOPES] });
  const walletId = (await services.admin.createWallet({ merchantId, asset: 'USDT', chain: 'ETH' }, ctx)).id;
  await services.admin.post({ walletId, kind: 'credit', amount: '500' }, ctx);
  const orderId = `order-${name}`;
  const amount = `${n}7.25`;
  const c = await services.checkouts.create(merchantId, {
    amount,
    currency: 'USDT',
    orderId,
    paymentOptions: [{ asset: 'USDT', chain: 'ETH' }],
    expiresIn: 3600,
  });
  const o = c.paymentOptions[0]!;
  const txHash = `0xAB${String(n).repeat(62)}`;
  await services.checkouts.reportTransfer(
    { chain: 'ETH', txHash, index: 0, toAddress: o.address, asset: 'USDT', amount: '1', confirmations: 0 },
    ctx,
  );
  await services.admin.updateMerchant(merchantId, { payoutCoolingOffHours: 0 }, ctx);
  const destinationId = (await services.payouts.addDestination(merchantId, { chain: 'ETH', address: EVM_DEST })).id;
  const payoutAmount = `${n}3.5`;
  const payout = await services.payouts.create(merchantId, { walletId, amount: payoutAmount, destinationId });
  const payoutTx = `0xCD${String(n).repeat(62)}`;
  // As a sender records it once broadcast.
  await services.store.db.updateTable('payouts').set({ tx_hash: payoutTx }).where('id', '=', payout.id).execute();
  return {
    key,
    checkoutId: c.id,
    orderId,
    address: o.address,
    txHash,
    amount,
    payoutId: payout.id,
    payoutTx,
    payoutAmount,
  };
}

describe.each(DIALECTS)('search on %s', (dialect) => {
  let fx: HttpFixture;
  let close: () => Promise<void>;
  let a: Shop;
  let b: Shop;

  beforeAll(async () => {
    ({ fx, close } = await reportsEnv(dialect));
    a = await shop(fx, 'a', 1);
    b = await shop(fx, 'b', 2);
  }, 60_000);
  afterAll(() => close());

  const search = async (key: TestKey, q: string) => {
    const res = await get(fx, key, `/api/v1/cp/search?q=${encodeURIComponent(q)}`);
    expect(res.statusCode, res.body).toBe(200);
    return (JSON.parse(res.body) as { result: { type: string; id: string; summary: string }[] }).result;
  };
  const values = (s: Shop): Record<string, [string, string, string]> => ({
    'checkout id': [s.checkoutId, 'checkout', s.checkoutId],
    'order id': [s.orderId, 'checkout', s.checkoutId],
    'deposit address': [s.address, 'checkout', s.checkoutId],
    'deposit address, other case, no 0x': [s.address.slice(2).toUpperCase(), 'checkout', s.checkoutId],
    'payment hash': [s.txHash.toLowerCase(), 'checkout', s.checkoutId],
    'checkout amount, other spelling': [`${s.amount}000`, 'checkout', s.checkoutId],
    'payout id': [s.payoutId, 'payout', s.payoutId],
    'payout hash, no 0x': [s.payoutTx.slice(2), 'payout', s.payoutId],
    'payout amount': [s.payoutAmount, 'payout', s.payoutId],
  });

  it('each kind of value finds its object', async () => {
    for (const [what, [q, type, id]] of Object.entries(values(a))) {
      const hits = await search(a.key, q);
      expect(
        hits.map((h) => `${h.type}:${h.id}`),
        what,
      ).toContain(`${type}:${id}`);
    }
    const byDestination = await search(a.key, EVM_DEST.toLowerCase());
    expect(byDestination.map((h) => h.id)).toEqual([a.payoutId]);
  });

  it('never across merchants: each of another merchant’s values finds nothing of it', async () => {
    for (const [what, [q]] of Object.entries(values(b))) {
      const hits = await search(a.key, q);
      expect(
        hits.filter((h) => h.id === b.checkoutId || h.id === b.payoutId),
        what,
      ).toEqual([]);
      expect(
        hits.every((h) => h.id === a.checkoutId || h.id === a.payoutId || h.id.startsWith('chk_')),
        what,
      ).toBe(true);
    }
  });

  it('each kind needs its read scope; with neither, 403 SCOPE_MISSING', async () => {
    const checkoutsOnly = await fx.createKey(a.key.merchantId, { scopes: ['checkout:read'] });
    expect((await search(checkoutsOnly, a.payoutId)).length).toBe(0);
    expect((await search(checkoutsOnly, a.checkoutId)).map((h) => h.id)).toEqual([a.checkoutId]);
    const payoutsOnly = await fx.createKey(a.key.merchantId, { scopes: ['payouts:read'] });
    expect((await search(payoutsOnly, a.checkoutId)).length).toBe(0);
    const none = await fx.createKey(a.key.merchantId, { scopes: ['wallets:read'] });
    const res = await get(fx, none, `/api/v1/cp/search?q=${a.checkoutId}`);
    expect(res.statusCode).toBe(403);
    expect(JSON.parse(res.body).error.code).toBe('SCOPE_MISSING');
  });

  it('a non-EVM address matches only exactly', async () => {
    const tron = await fx.services.checkouts.create(a.key.merchantId, {
      amount: '5',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      expiresIn: 3600,
    });
    const address = tron.paymentOptions[0]!.address;
    expect((await search(a.key, address)).map((h) => h.id)).toEqual([tron.id]);
    expect(await search(a.key, address.toLowerCase())).toEqual([]);
  });

  // Plans are PostgreSQL's (SQLite has no comparable EXPLAIN contract): defined on that store only, so nothing is skipped.
  if (dialect === 'postgres')
    it('the searches read indexes (PostgreSQL plans)', async () => {
      const db = fx.services.store.db;
      await sql`set enable_seqscan = off`.execute(db);
      const plan = async (q: ReturnType<typeof sql>) =>
        ((await sql`explain ${q}`.execute(db)).rows as Record<string, string>[]).map((r) => r['QUERY PLAN']).join('\n');
      const m = a.key.merchantId;
      const plans = [
        await plan(sql`select id from checkouts where merchant_id = ${m} and order_id = ${a.orderId}`),
        await plan(sql`select checkout_id from checkout_options where lower(address) in (${a.address.toLowerCase()})`),
        await plan(sql`select checkout_id from transfers where lower(tx_hash) in (${a.txHash.toLowerCase()})`),
        await plan(sql`select id from checkouts where merchant_id = ${m} and amount = ${a.amount}`),
        await plan(
          sql`select id from payouts where merchant_id = ${m} and lower(destination) in (${EVM_DEST.toLowerCase()})`,
        ),
      ];
      await sql`reset enable_seqscan`.execute(db);
      if (process.env.PRINT_PLANS) console.log(plans.join('\n\n'));
      for (const p of plans) expect(p).toMatch(/Index|Bitmap/);
    });
});
