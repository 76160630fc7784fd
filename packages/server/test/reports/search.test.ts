import { SCOPES } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers.js';
import type { HttpFixture, TestKey } from '../http-helpers/fixture.js';
import { reconcile } from '../../src/features/reports/reconciliation.js';
import { search as searchStore } from '../../src/features/reports/search.js';
import { get, reportsEnv } from './env.js';
import { BIG_TABLES, bulkUp, fullScans, planOf, spying } from './plans.js';

/**
 * GET /api/v1/cp/search on both stores: every kind of value finds its object for its merchant,
 * and never another merchant's (each kind tried with the other merchant's values); EVM addresses
 * and hashes ignore case and `0x`; amounts compare as numbers; emails ignore case; a link's name
 * matches as a substring; each kind needs its scope.
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
  email: string;
  linkId: string;
  linkSlug: string;
  linkUrl: string;
  linkName: string;
  invoiceId: string;
  invoiceNumber: string;
  invoiceEmail: string;
  invoiceTotal: string;
}

async function shop(fx: HttpFixture, name: string, n: number): Promise<Shop> {
  const { services } = fx;
  const merchantId = await fx.createMerchant(name);
  const key = await fx.createKey(merchantId, { scopes: [...SCOPES] });
  const walletId = (await services.admin.createWallet({ merchantId, asset: 'USDT', chain: 'ETH' }, ctx)).id;
  await services.admin.post({ walletId, kind: 'credit', amount: '500' }, ctx);
  const orderId = `order-${name}`;
  const amount = `${n}7.25`;
  const email = `Buyer.${name}@Example.com`;
  const c = await services.checkouts.create(merchantId, {
    amount,
    currency: 'USDT',
    orderId,
    customerEmail: email,
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
  const link = JSON.parse(
    await services.paymentLinks.create(merchantId, {
      name: `Summer Gift Box ${name.toUpperCase()}${n}`,
      currency: 'USDT',
      amount: `${n}9`,
      paymentOptions: [{ asset: 'USDT', chain: 'ETH' }],
    }),
  ) as { id: string; slug: string; url: string; name: string };
  const invoiceTotal = `${n}41.5`;
  const draft = await services.invoices.create(merchantId, {
    currency: 'USDT',
    customer: { name: `Customer ${name}`, email: `Billing.${name}@Example.org` },
    lineItems: [{ description: 'Consulting', quantity: 1, unitAmount: invoiceTotal }],
  });
  const invoice = (await services.invoices.finalize(merchantId, draft.id as string)) as { id: string; number: string };
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
    email,
    linkId: link.id,
    linkSlug: link.slug,
    linkUrl: link.url,
    linkName: link.name,
    invoiceId: invoice.id,
    invoiceNumber: invoice.number,
    invoiceEmail: `Billing.${name}@Example.org`,
    invoiceTotal,
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
    'customer email, other case': [s.email.toUpperCase(), 'checkout', s.checkoutId],
    'link id': [s.linkId, 'payment_link', s.linkId],
    'link slug': [s.linkSlug, 'payment_link', s.linkId],
    'link address': [s.linkUrl, 'payment_link', s.linkId],
    'link name, part of it, other case': [s.linkName.slice(7).toLowerCase(), 'payment_link', s.linkId],
    'invoice id': [s.invoiceId, 'invoice', s.invoiceId],
    'invoice number': [s.invoiceNumber, 'invoice', s.invoiceId],
    'invoice customer email, other case': [s.invoiceEmail.toLowerCase(), 'invoice', s.invoiceId],
    'invoice total, other spelling': [`${s.invoiceTotal}0`, 'invoice', s.invoiceId],
  });
  const ids = (s: Shop) => [s.checkoutId, s.payoutId, s.linkId, s.invoiceId];

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
        hits.filter((h) => ids(b).includes(h.id)),
        what,
      ).toEqual([]);
      // Only a's own objects (its checkout, payout, link, invoice, or the demo's checkouts) at most.
      expect(
        hits.every((h) => ids(a).includes(h.id) || h.id.startsWith('chk_')),
        what,
      ).toBe(true);
    }
  });

  it('each kind needs its read scope; with neither, 403 SCOPE_MISSING', async () => {
    const checkoutsOnly = await fx.createKey(a.key.merchantId, { scopes: ['checkout:read'] });
    expect((await search(checkoutsOnly, a.payoutId)).length).toBe(0);
    expect((await search(checkoutsOnly, a.checkoutId)).map((h) => h.id)).toEqual([a.checkoutId]);
    expect((await search(checkoutsOnly, a.linkId)).length).toBe(0);
    expect((await search(checkoutsOnly, a.invoiceNumber)).length).toBe(0);
    const payoutsOnly = await fx.createKey(a.key.merchantId, { scopes: ['payouts:read'] });
    expect((await search(payoutsOnly, a.checkoutId)).length).toBe(0);
    const linksOnly = await fx.createKey(a.key.merchantId, { scopes: ['links:read'] });
    expect((await search(linksOnly, a.linkId)).map((h) => h.id)).toEqual([a.linkId]);
    expect((await search(linksOnly, a.invoiceId)).length).toBe(0);
    const invoicesOnly = await fx.createKey(a.key.merchantId, { scopes: ['invoices:read'] });
    expect((await search(invoicesOnly, a.invoiceNumber)).map((h) => h.id)).toEqual([a.invoiceId]);
    expect((await search(invoicesOnly, a.email)).length).toBe(0);
    const none = await fx.createKey(a.key.merchantId, { scopes: ['wallets:read'] });
    const res = await get(fx, none, `/api/v1/cp/search?q=${a.checkoutId}`);
    expect(res.statusCode).toBe(403);
    expect(JSON.parse(res.body).error.code).toBe('SCOPE_MISSING');
  });

  it('a link name matches in part, in any script; % and _ are literal', async () => {
    const m = a.key.merchantId;
    const make = async (name: string) =>
      (
        JSON.parse(
          await fx.services.paymentLinks.create(m, {
            name,
            currency: 'USDT',
            amount: '3',
            paymentOptions: [{ asset: 'USDT', chain: 'ETH' }],
          }),
        ) as { id: string }
      ).id;
    const cyrillic = await make('Подарочный набор «Зима»');
    const percent = await make('Sale 50% off');
    const plain = await make('Sale 50 off');
    expect((await search(a.key, 'Подарочный')).map((h) => h.id)).toEqual([cyrillic]);
    expect((await search(a.key, 'набор')).map((h) => h.id)).toEqual([cyrillic]);
    expect((await search(a.key, '50%')).map((h) => h.id)).toEqual([percent]);
    expect((await search(a.key, 'sale 50')).map((h) => h.id).sort()).toEqual([percent, plain].sort());
    expect(await search(a.key, 'e_5')).toEqual([]);
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
    it('the searches and the reconciliation read indexes (PostgreSQL plans of the statements they run)', async () => {
      // 20,000 copies of shop a's checkout and payout (the test's other values stay unique), and of
      // its invoice and link as merchant b's: those are read within the merchant's own rows.
      await bulkUp(fx.services.store.db, { ...a, otherMerchantId: b.key.merchantId }, 20_000);
      const { db, seen } = spying(fx.services.store.db);
      const sources = fx.services.reports.searchSources();
      for (const [q] of Object.values(values(a))) await searchStore(db, a.key.merchantId, sources, q, 20);
      const searches = seen.length;
      const now = fx.now();
      const range = { from: new Date(now - 86_400_000).toISOString(), to: new Date(now + 60_000).toISOString() };
      const recon = await reconcile({ db, dialect }, range);
      // The reconciliation read pages and looked up their transfers and payouts.
      expect(recon.days.length).toBeGreaterThan(0);
      expect(seen.length - searches).toBeGreaterThanOrEqual(4);
      const plans = new Map<string, string>();
      const full: string[] = [];
      for (const query of seen) {
        if (plans.has(query.sql)) continue;
        const plan = await planOf(fx.services.store.db, query);
        plans.set(query.sql, plan.text);
        for (const f of fullScans(plan.tree, BIG_TABLES)) full.push(`${f}\n  in ${query.sql}\n${plan.text}`);
      }
      if (process.env.PRINT_PLANS) console.log([...plans].map(([q, p]) => `${q}\n${p}`).join('\n\n'));
      expect(plans.size).toBeGreaterThanOrEqual(24);
      expect(full).toEqual([]);
    });
});
