import { Decimal, decimalText, parseExactJson } from '@hostpay/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo/seed.js';
import { configureChains } from '../http-helpers/checkouts.js';
import { DIALECTS, tempServices, type TempEnv } from '../helpers.js';

/**
 * The dashboard home's summary on both stores, against a month of checkouts placed at chosen
 * times: settled volume per UTC day and month, summed exactly (10.1 + 10.2 is 20.3, not a float),
 * balances as the ledger holds them, and exactly the checkouts the summary says need attention.
 */
const at = (iso: string) => Date.parse(iso);
const NOW = at('2027-03-10T09:10:00.000Z');

describe.each(DIALECTS)('summary on %s', (dialect) => {
  const clock = { ms: at('2027-02-27T12:00:00.000Z') };
  let env: TempEnv;
  let merchantId: string;
  const ids: Record<string, string> = {};
  let summary: any;

  async function checkout(name: string, when: string, amount: string, currency = 'EUR', expiresIn = 3600) {
    clock.ms = at(when);
    const c = await env.services.checkouts.create(merchantId, {
      amount,
      currency,
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      expiresIn,
    });
    ids[name] = c.id;
    return c;
  }
  async function pay(
    c: Awaited<ReturnType<typeof checkout>>,
    when: string,
    amount: (due: Decimal) => Decimal,
    confirmations = 2,
  ) {
    clock.ms = at(when);
    const o = c.paymentOptions[0]!;
    await env.services.checkouts.reportTransfer(
      {
        chain: o.chain,
        txHash: `tx_${c.id}_${clock.ms}`,
        index: 0,
        toAddress: o.address,
        asset: 'USDT',
        amount: decimalText(amount(new Decimal(String(o.amountDue)))),
        confirmations,
      },
      { operator: 'test' },
    );
  }
  const full = (d: Decimal) => d;

  beforeAll(async () => {
    env = await tempServices(dialect, { now: () => clock.ms, expirySweepMs: 0 });
    merchantId = (await seedDemo(env.services, env.dataDir)).merchantId;
    await configureChains(env.services, 2);
    // Last month: not in this month's volume.
    await pay(await checkout('A', '2027-02-27T12:00:00.000Z', '1000'), '2027-02-27T12:01:00.000Z', full);
    // Yesterday: this month only.
    await pay(await checkout('B', '2027-03-09T10:00:00.000Z', '5.3'), '2027-03-09T10:01:00.000Z', full);
    // Partly paid, then expired: needs_review.
    const k = await checkout('K', '2027-03-10T06:00:00.000Z', '50', 'EUR', 900);
    await pay(k, '2027-03-10T06:01:00.000Z', (d) => d.div(2));
    clock.ms = at('2027-03-10T06:20:00.000Z');
    await env.services.checkouts.expireDue();
    // Today: 10.1 + 10.2 + 11.5 EUR (11.5 overpaid) and 7.25 USDT; 10.1 + 10.2 in floats is 20.299999999999997.
    await pay(await checkout('C', '2027-03-10T07:00:00.000Z', '10.1'), '2027-03-10T07:10:00.000Z', full);
    await pay(await checkout('D', '2027-03-10T07:00:00.000Z', '10.2'), '2027-03-10T07:11:00.000Z', full);
    await pay(await checkout('E', '2027-03-10T07:00:00.000Z', '7.25', 'USDT'), '2027-03-10T07:12:00.000Z', full);
    await pay(await checkout('F', '2027-03-10T07:30:00.000Z', '11.5'), '2027-03-10T08:01:00.000Z', (d) => d.plus(1));
    // Underpaid, still open; processing for an hour; processing for half an hour.
    await pay(await checkout('G', '2027-03-10T07:30:00.000Z', '20'), '2027-03-10T08:02:00.000Z', (d) => d.div(4));
    await pay(await checkout('H', '2027-03-10T07:30:00.000Z', '30'), '2027-03-10T08:03:00.000Z', full, 1);
    await pay(await checkout('I', '2027-03-10T08:00:00.000Z', '40'), '2027-03-10T08:30:00.000Z', full, 1);
    // Settled today, but another merchant's: in nobody's figures here.
    await pay(await checkout('J', '2027-03-10T08:00:00.000Z', '99'), '2027-03-10T08:40:00.000Z', full);
    const other = await env.services.admin.createMerchant('Other shop', { operator: 'test' });
    await env.services.store.db
      .updateTable('checkouts')
      .set({ merchant_id: other.id })
      .where('id', '=', ids.J!)
      .execute();
    clock.ms = NOW;
    summary = parseExactJson(await env.services.summary.summaryJson(merchantId));
  }, 60_000);
  afterAll(async () => {
    await env?.cleanup();
  });

  it('settled volume per currency, today and this month (UTC), summed exactly', async () => {
    const statuses = await env.services.store.db
      .selectFrom('checkouts')
      .select(['id', 'status', 'reason'])
      .where('id', 'in', Object.values(ids))
      .execute();
    const status = Object.fromEntries(statuses.map((s) => [s.id, `${s.status}${s.reason ? `/${s.reason}` : ''}`]));
    expect(
      Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, status[id]])),
      'the fixture reached the states it means to',
    ).toEqual({
      A: 'settled',
      B: 'settled',
      K: 'needs_review/paid_partial',
      C: 'settled',
      D: 'settled',
      E: 'settled',
      F: 'settled/paid_over',
      G: 'underpaid/paid_partial',
      H: 'processing',
      I: 'processing',
      J: 'settled',
    });
    expect(summary.settled).toEqual({
      todayFrom: '2027-03-10T00:00:00.000Z',
      monthFrom: '2027-03-01T00:00:00.000Z',
      today: [
        { currency: 'EUR', amount: '31.8', count: '3' },
        { currency: 'USDT', amount: '7.25', count: '1' },
      ],
      month: [
        { currency: 'EUR', amount: '37.1', count: '4' },
        { currency: 'USDT', amount: '7.25', count: '1' },
      ],
    });
  });

  it('balances are the ledger balances of every wallet of the merchant', async () => {
    const wallets = await env.services.store.db
      .selectFrom('wallets')
      .select(['id', 'amount', 'freeze_amount'])
      .where('merchant_id', '=', merchantId)
      .execute();
    expect(summary.balances).toHaveLength(wallets.length);
    for (const w of wallets) {
      const shown = summary.balances.find((b: { walletId: string }) => b.walletId === w.id);
      expect(shown.balance).toBe(decimalText(String(w.amount)));
      expect(shown.freezeAmount).toBe(decimalText(String(w.freeze_amount)));
    }
    // The settlements credited the USDT/TRON wallet: its balance is not zero.
    const tron = summary.balances.find(
      (b: { asset: string; chain: string }) => b.asset === 'USDT' && b.chain === 'TRON',
    );
    expect(new Decimal(tron.balance).gt(0)).toBe(true);
  });

  it('attention: review, underpaid, processing for over an hour, overpaid — newest change first', () => {
    expect(summary.attention.map((c: { id: string }) => c.id)).toEqual([ids.H, ids.G, ids.F, ids.K]);
    // Whole checkout list items, amounts exact.
    expect(summary.attention[1]).toMatchObject({ id: ids.G, status: 'underpaid', amount: '20', currency: 'EUR' });
  });

  if (dialect === 'sqlite')
    it('reads by index: checkouts by merchant, status and last change; deliveries by checkout and event', async () => {
      const plan = async (query: string) =>
        (await sql<{ detail: string }>`${sql.raw(`EXPLAIN QUERY PLAN ${query}`)}`.execute(env.services.store.db)).rows
          .map((r) => r.detail)
          .join('; ');
      expect(
        await plan(
          "select currency, amount, updated_at from checkouts where merchant_id = 'm' and status = 'settled' and updated_at >= '2027-03-01'",
        ),
      ).toContain('USING INDEX checkouts_merchant_status_updated');
      expect(
        await plan(
          "select * from checkouts where merchant_id = 'm' and status = 'processing' and updated_at < '2027-03-10' order by updated_at desc, id desc limit 50",
        ),
      ).toContain('USING INDEX checkouts_merchant_status_updated');
      const deliveries = await plan(
        "select a.* from webhook_attempts a join events e on e.id = a.event_id where e.checkout_id = 'c' and e.merchant_id = 'm' order by a.attempted_at desc, a.id desc limit 51",
      );
      expect(deliveries).toContain('USING INDEX events_checkout');
      expect(deliveries).toContain('USING INDEX webhook_attempts_event');
    });
});
