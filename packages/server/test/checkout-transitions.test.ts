import { Decimal } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/demo/seed.js';
import { DIALECTS, tempServices, type TempEnv } from './helpers.js';
import { configureChains, isTableWalk } from './http-helpers/checkouts.js';

/**
 * Every row of the contract's state table, driven through the service (the code the routes,
 * the transfers endpoint and the expiry timer call) on SQLite and on PostgreSQL. Each checkout's
 * timeline must be a walk through the table, and money must land exactly as the contract says.
 */
interface Checkout {
  id: string;
  status: string;
  reason: string | null;
  expiresAt: string;
  paymentOptions: {
    asset: string;
    chain: string;
    address: string;
    amountDue: { toString(): string };
    fee: { toString(): string };
  }[];
  timeline: { status: string; reason: string | null }[];
}

describe.each(DIALECTS)('checkout transitions on %s', (dialect) => {
  let env: TempEnv;
  let merchantId: string;
  const clock = { offsetMs: 0 };
  const now = () => Date.now() + clock.offsetMs;
  let tx = 0;
  const ctx = { operator: 'test' };

  beforeAll(async () => {
    env = await tempServices(dialect, { now, expirySweepMs: 0 });
    merchantId = (await seedDemo(env.services, env.dataDir)).merchantId;
    await configureChains(env.services, 2);
  });
  afterAll(() => env.cleanup());

  const svc = () => env.services.checkouts;
  const create = async (amount = '100', extra: Record<string, unknown> = {}): Promise<Checkout> =>
    (await svc().create(merchantId, {
      amount,
      currency: 'USDT',
      paymentOptions: [
        { asset: 'USDT', chain: 'TRON' },
        { asset: 'USDT', chain: 'ETH' },
      ],
      ...extra,
    })) as unknown as Checkout;
  const pay = async (
    c: Checkout,
    amount: string,
    options: { confirmations?: number; option?: number; asset?: string; txHash?: string; blockTime?: string } = {},
  ) => {
    const o = c.paymentOptions[options.option ?? 0]!;
    const report = {
      chain: o.chain,
      txHash: options.txHash ?? `0xtx${++tx}`,
      index: 0,
      toAddress: o.address,
      asset: options.asset ?? o.asset,
      amount,
      confirmations: options.confirmations ?? 0,
      ...(options.blockTime ? { blockTime: options.blockTime } : {}),
    };
    return svc().reportTransfer(report, { operator: 'test' });
  };
  const get = async (id: string) => (await svc().get(undefined, id)) as unknown as Checkout;
  const walk = (c: Checkout) => c.timeline.map((t) => t.status);
  const balance = async (chain: string) => {
    const row = await env.services.store.db
      .selectFrom('wallets')
      .innerJoin('chains', 'chains.id', 'wallets.chain_id')
      .innerJoin('assets', 'assets.id', 'wallets.asset_id')
      .select('wallets.amount')
      .where('merchant_id', '=', merchantId)
      .where('chains.symbol', '=', chain)
      .where('assets.symbol', '=', 'USDT')
      .executeTakeFirst();
    return new Decimal(row?.amount ?? 0);
  };

  it('open → underpaid (paid_partial) → processing → settled; credit = received − fee', async () => {
    const c = await create();
    const before = await balance('TRON');
    await pay(c, '30');
    expect([(await get(c.id)).status, (await get(c.id)).reason]).toEqual(['underpaid', 'paid_partial']);
    const second = await pay(c, '70', { txHash: '0xsecond' });
    expect(second.checkout?.status).toBe('processing');
    // Confirmations only grow: a lower repeat changes nothing; the required count settles.
    await svc().reportTransfer(
      {
        chain: 'TRON',
        txHash: '0xsecond',
        index: 0,
        toAddress: c.paymentOptions[0]!.address,
        asset: 'USDT',
        amount: '70',
        confirmations: 5,
      },
      { operator: 'test' },
    );
    expect((await get(c.id)).status).toBe('processing');
    const all = await env.services.store.db
      .selectFrom('transfers')
      .select(['tx_hash', 'confirmations'])
      .where('checkout_id', '=', c.id)
      .execute();
    for (const t of all)
      await svc().reportTransfer(
        {
          chain: 'TRON',
          txHash: t.tx_hash,
          index: 0,
          toAddress: c.paymentOptions[0]!.address,
          asset: 'USDT',
          amount: t.tx_hash === '0xsecond' ? '70' : '30',
          confirmations: 2,
        },
        { operator: 'test' },
      );
    const done = await get(c.id);
    expect(done.status).toBe('settled');
    expect(done.reason).toBeNull();
    expect(walk(done)).toEqual(['open', 'underpaid', 'processing', 'settled']);
    expect((await balance('TRON')).minus(before).toFixed()).toBe(
      new Decimal(100).minus(done.paymentOptions[0]!.fee.toString()).toFixed(),
    );
  });

  it('an already-confirmed payment goes open → processing → settled in one report (two entries), paid_over when above amountDue', async () => {
    const c = await create('10');
    const result = await pay(c, '12', { confirmations: 2 });
    expect(result.checkout?.status).toBe('settled');
    expect(result.checkout?.reason).toBe('paid_over');
    expect(walk(await get(c.id))).toEqual(['open', 'processing', 'settled']);
    // A payment to a settled checkout is recorded, credited to nothing, and listed as an exception.
    const extra = await pay(c, '1', { confirmations: 2 });
    expect(extra.transfer.exception).toBe('extra_payment');
    expect((await get(c.id)).status).toBe('settled');
  });

  it('money on a second option leaves the checkout paid_over when it settles on the first', async () => {
    const c = await create('10');
    await pay(c, '1', { option: 1, confirmations: 2 });
    const r = await pay(c, '10', { confirmations: 2 });
    expect([r.checkout?.status, r.checkout?.reason]).toEqual(['settled', 'paid_over']);
  });

  it('processing → underpaid / open when a payment is retracted (payment_retracted)', async () => {
    const c = await create('10');
    await pay(c, '4');
    const big = await pay(c, '6');
    expect(big.checkout?.status).toBe('processing');
    const back = await svc().retractTransfer(big.transfer.id, { operator: 'test' });
    expect([back.checkout?.status, back.checkout?.reason]).toEqual(['underpaid', 'payment_retracted']);
    const c2 = await create('10');
    const only = await pay(c2, '10');
    const open = await svc().retractTransfer(only.transfer.id, { operator: 'test' });
    expect([open.checkout?.status, open.checkout?.reason]).toEqual(['open', 'payment_retracted']);
  });

  it('open → canceled by the merchant; a late payment → needs_review (paid_late); operator settles, crediting value − fee', async () => {
    const c = await create('20');
    expect(((await svc().cancel(merchantId, c.id)) as unknown as Checkout).status).toBe('canceled');
    await expect(svc().cancel(merchantId, c.id)).rejects.toMatchObject({ code: 'CHECKOUT_STATE_CONFLICT' });
    const late = await pay(c, '20', { confirmations: 2 });
    expect([late.checkout?.status, late.checkout?.reason]).toEqual(['needs_review', 'paid_late']);
    expect(late.transfer.exception).toBe('paid_late');
    const before = await balance('TRON');
    const settled = (await svc().settleReview(c.id, {}, ctx)) as unknown as Checkout;
    expect([settled.status, settled.reason]).toEqual(['settled', 'paid_late']);
    expect(walk(settled)).toEqual(['open', 'canceled', 'needs_review', 'settled']);
    // Fee for 20 USDT: 1.5 % → 0.3, min 1, + 1 on-chain = 2.
    expect((await balance('TRON')).minus(before).toFixed()).toBe('18');
  });

  it('open → expired when expiresAt passes; underpaid → needs_review (paid_partial); operator rejects → invalid', async () => {
    const a = await create('5');
    const b = await create('5');
    await pay(b, '1');
    clock.offsetMs += 16 * 60_000;
    try {
      expect(await svc().expireDue()).toBeGreaterThanOrEqual(2);
      expect((await get(a.id)).status).toBe('expired');
      const review = await get(b.id);
      expect([review.status, review.reason]).toEqual(['needs_review', 'paid_partial']);
      expect(await svc().expireDue()).toBe(0);
      const rejected = (await svc().rejectReview(b.id, ctx)) as unknown as Checkout;
      expect([rejected.status, rejected.reason]).toEqual(['invalid', 'rejected_by_operator']);
      // Invalid never changes.
      await expect(svc().settleReview(b.id, {}, ctx)).rejects.toMatchObject({ code: 'CHECKOUT_STATE_CONFLICT' });
      const late = await pay(a, '5');
      expect([late.checkout?.status, late.checkout?.reason]).toEqual(['needs_review', 'paid_late']);
    } finally {
      clock.offsetMs -= 16 * 60_000;
    }
  });

  it('a payment on time (blockTime before expiresAt) but reported later is honoured', async () => {
    const c = await create('5');
    clock.offsetMs += 16 * 60_000;
    try {
      const r = await pay(c, '5', {
        blockTime: new Date(Date.parse(c.expiresAt) - 1000).toISOString(),
        confirmations: 2,
      });
      expect(r.checkout?.status).toBe('settled');
    } finally {
      clock.offsetMs -= 16 * 60_000;
    }
  });

  it('wrong asset on an option address → needs_review (wrong_asset) from open, underpaid and processing', async () => {
    for (const setup of ['open', 'underpaid', 'processing'] as const) {
      const c = await create('10');
      if (setup === 'underpaid') await pay(c, '1');
      if (setup === 'processing') await pay(c, '10');
      const r = await pay(c, '0.5', { asset: 'TRX' });
      expect([r.checkout?.status, r.checkout?.reason], setup).toEqual(['needs_review', 'wrong_asset']);
      expect(r.transfer.exception).toBe('wrong_asset');
    }
  });

  it('the settle preview names the merchant, what arrived, the fee, the credit and the wallet; the settle credits exactly that', async () => {
    await env.services.admin.setRate({ base: 'USDT', quote: 'TRX', rate: '3.6', source: 'test' }, ctx);
    const c = await create('10');
    await pay(c, '23.2', { asset: 'TRX' });
    const trxWallet = async () =>
      env.services.store.db
        .selectFrom('wallets')
        .innerJoin('assets', 'assets.id', 'wallets.asset_id')
        .select(['wallets.id', 'wallets.amount', 'wallets.active'])
        .where('merchant_id', '=', merchantId)
        .where('assets.symbol', '=', 'TRX')
        .executeTakeFirst();
    const before = await trxWallet();
    const preview = await svc().settlePreview(c.id, {});
    expect(preview.merchant).toMatchObject({ id: merchantId, status: 'active' });
    expect(preview.merchant.name.length).toBeGreaterThan(0);
    expect([preview.received.asset, preview.received.chain, String(preview.received.amount)]).toEqual([
      'TRX',
      'TRON',
      '23.2',
    ]);
    expect(preview.value.rateSource).toBe('current');
    expect(new Decimal(String(preview.credit.amount)).toFixed()).toBe(
      new Decimal('23.2').minus(String(preview.fee.amount)).toFixed(),
    );
    // The demo's TRX wallet is inactive (or missing): the preview says so before anything is credited.
    expect(preview.wallet.exists).toBe(before !== undefined);
    if (before !== undefined) expect(preview.wallet.active).toBe(before.active === 1);
    // A preview writes nothing, and only a checkout in review has one.
    expect((await get(c.id)).status).toBe('needs_review');
    await expect(svc().settlePreview(c.id, { asset: 'BTC', chain: 'BTC' })).rejects.toMatchObject({
      code: 'INVALID_QUERY',
    });
    await svc().settleReview(c.id, {}, ctx);
    const after = await trxWallet();
    expect(new Decimal(after!.amount).minus(before?.amount ?? 0).toFixed()).toBe(String(preview.credit.amount));
    await expect(svc().settlePreview(c.id, {})).rejects.toMatchObject({ code: 'CHECKOUT_STATE_CONFLICT' });
  });

  it('the underpayment tolerance completes a checkout at amountDue × (1 − tolerance)', async () => {
    // Through the operator API's service, as operators change it (it also drops the cached tolerance).
    await env.services.admin.updateMerchant(merchantId, { underpaymentTolerancePercent: '0.5' }, ctx);
    try {
      const c = await create('100');
      expect((await pay(c, '99.49')).checkout?.status).toBe('underpaid');
      expect((await pay(c, '0.01')).checkout?.status).toBe('processing');
    } finally {
      await env.services.admin.updateMerchant(merchantId, { underpaymentTolerancePercent: '0' }, ctx);
    }
  });

  it('unknown address → unmatched; attach moves the checkout', async () => {
    const stray = await svc().reportTransfer(
      {
        chain: 'TRON',
        txHash: '0xstray',
        index: 3,
        toAddress: 'TNoSuchAddressxxxxxxxxxxxxxxxxxxxx',
        asset: 'USDT',
        amount: '10',
        confirmations: 2,
      },
      { operator: 'test' },
    );
    expect(stray.transfer.exception).toBe('unmatched');
    expect(stray.checkout).toBeNull();
    const c = await create('10');
    const attached = await svc().attachTransfer(stray.transfer.id, c.id, ctx);
    expect(attached.checkout?.status).toBe('settled');
    // A repeat with other details is refused; the same details are a no-op.
    await expect(
      svc().reportTransfer(
        {
          chain: 'TRON',
          txHash: '0xstray',
          index: 3,
          toAddress: 'TNoSuchAddressxxxxxxxxxxxxxxxxxxxx',
          asset: 'USDT',
          amount: '11',
          confirmations: 2,
        },
        { operator: 'test' },
      ),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
  });

  it('every timeline written above is a walk through the table, and every settled checkout was credited once', async () => {
    const db = env.services.store.db;
    const rows = await db.selectFrom('checkout_timeline').selectAll().orderBy('checkout_id').orderBy('seq').execute();
    const byCheckout = new Map<string, string[]>();
    for (const r of rows) byCheckout.set(r.checkout_id, [...(byCheckout.get(r.checkout_id) ?? []), r.status]);
    for (const [id, statuses] of byCheckout) expect(isTableWalk(statuses), `${id}: ${statuses.join(' → ')}`).toBe(true);
    const settled = await db
      .selectFrom('checkouts')
      .select(['id', 'credited_posting_id'])
      .where('status', '=', 'settled')
      .execute();
    const postings = await db
      .selectFrom('ledger_postings')
      .select('idempotency_key')
      .where('idempotency_key', 'like', 'checkout:%')
      .execute();
    expect(postings.length).toBe(settled.filter((s) => s.credited_posting_id !== null).length);
    expect(new Set(postings.map((p) => p.idempotency_key)).size).toBe(postings.length);
  });
});
