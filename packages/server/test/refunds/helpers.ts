import { randomBytes } from 'node:crypto';
import { parseExactJson, SCOPES } from '@hostpay/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { dropPostgresSchema } from '../../src/store/postgres.js';
import { TEST_DATABASE_URL, type Dialect } from '../helpers.js';
import { checkoutCall, configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture, type TestKey } from '../http-helpers/fixture.js';
import { createCheckout, simulate } from '../pay/helpers.js';

export const C = '/api/v1/cp/psp/hosted-pay';

/** The HTTP world on either store, in a sandbox, with the demo chains' deposit keys. */
export type RefundFixture = HttpFixture & {
  /** The demo merchant's key with every scope, `payouts:write` included (never granted by default). */
  refunder: TestKey;
  drop(): Promise<void>;
};

export async function refundFixture(dialect: Dialect): Promise<RefundFixture> {
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  const fx = await createFixture(
    dialect === 'postgres'
      ? { sandbox: true, databaseUrl: TEST_DATABASE_URL, databaseSchema: schema }
      : { sandbox: true },
  );
  await configureChains(fx.services);
  const refunder = await fx.createKey(fx.demo.merchantId, { scopes: [...SCOPES] });
  return {
    ...fx,
    refunder,
    async drop() {
      await fx.close();
      if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
    },
  };
}

/** A checkout of `amount` USDT on TRON, paid in full (settled) unless told otherwise. */
export async function paidCheckout(fx: HttpFixture, paid = '100', amount = '100'): Promise<string> {
  const c = await createCheckout(fx, { amount, currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] });
  await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: paid });
  return c.id;
}

/**
 * A checkout of 100 USDT on TRON paid `paid` and taken past its expiry (the services' clock moved
 * on and back): paid short, it is in review (needs_review).
 */
export async function inReview(fx: HttpFixture, paid: string): Promise<string> {
  const id = await paidCheckout(fx, paid);
  fx.clock.offsetMs += 16 * 60_000;
  try {
    await fx.services.checkouts.expireDue();
  } finally {
    fx.clock.offsetMs -= 16 * 60_000;
  }
  return id;
}

/** A valid TRON address no checkout of the test pays to (a deposit address handed out for nothing else): a payer's own. */
export async function spareTronAddress(fx: HttpFixture): Promise<string> {
  const spare = await createCheckout(fx, {
    amount: '10',
    currency: 'USDT',
    paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
  });
  return spare.paymentOptions[0]!.address;
}

export const exact = <T = Record<string, unknown>>(res: LightMyRequestResponse): T =>
  (parseExactJson(res.body) as { result: T }).result;

export const errorCode = (res: LightMyRequestResponse): string =>
  (JSON.parse(res.body) as { error: { code: string } }).error.code;

export const refundLink = (fx: RefundFixture, id: string, body: Record<string, unknown> = {}, key = fx.refunder) =>
  checkoutCall(fx, key, 'POST', `${C}/${id}/refund-link`, body);

export const refund = (fx: RefundFixture, id: string, body: Record<string, unknown>, key = fx.refunder) =>
  checkoutCall(fx, key, 'POST', `${C}/${id}/refunds`, body);

/** The path of a refund link's URL. */
export const pathOf = (url: string) => new URL(url).pathname;

/** The payer's form post, as a browser sends it from the page. */
export const submit = (fx: HttpFixture, path: string, address: string, headers: Record<string, string> = {}) =>
  fx.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80', ...headers },
    payload: new URLSearchParams({ address }).toString(),
  });

export async function balanceOf(fx: HttpFixture, merchantId: string, asset: string, chain: string) {
  const w = await fx.services.store.db
    .selectFrom('wallets as w')
    .innerJoin('assets as a', 'a.id', 'w.asset_id')
    .innerJoin('chains as c', 'c.id', 'w.chain_id')
    .select(['w.id', 'w.amount', 'w.freeze_amount'])
    .where('w.merchant_id', '=', merchantId)
    .where('a.symbol', '=', asset)
    .where('c.symbol', '=', chain)
    .executeTakeFirst();
  return w === undefined ? undefined : { id: w.id, amount: String(w.amount), frozen: String(w.freeze_amount) };
}
