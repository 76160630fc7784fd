import { Decimal } from '@hostpay/protocol';
import type { Services } from '../../src/services.js';

/** The pieces of a checkout the watcher tests look at, read from the store (exact decimals as text). */
export async function checkoutState(services: Services, id: string) {
  const db = services.store.db;
  const row = await db
    .selectFrom('checkouts')
    .select(['status', 'reason', 'credited_posting_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const timeline = await db
    .selectFrom('checkout_timeline')
    .select(['status', 'reason'])
    .where('checkout_id', '=', id)
    .orderBy('seq')
    .execute();
  const transfers = await db
    .selectFrom('transfers')
    .select(['tx_hash', 'log_index', 'amount', 'confirmations', 'retracted', 'block_hash'])
    .where('checkout_id', '=', id)
    .execute();
  return {
    ...row,
    timeline: timeline.map((t) => (t.reason === null ? t.status : `${t.status}:${t.reason}`)),
    transfers,
  };
}

/** A new checkout paid on ETH in `asset`: its id, deposit address, amount due and net credit. */
export async function ethCheckout(
  services: Services,
  merchantId: string,
  amount: string,
  currency: string,
  asset: 'USDT' | 'ETH',
) {
  const c = await services.checkouts.create(merchantId, {
    amount,
    currency,
    paymentOptions: [{ asset, chain: 'ETH' }],
    expiresIn: 3600,
  });
  const option = await services.store.db
    .selectFrom('checkout_options')
    .selectAll()
    .where('checkout_id', '=', c.id)
    .executeTakeFirstOrThrow();
  return {
    id: c.id,
    address: option.address,
    due: new Decimal(option.amount_due).toFixed(),
    net: new Decimal(option.net_amount),
  };
}

/** The merchant's balance of `asset` on ETH. */
export async function balance(services: Services, merchantId: string, asset: string): Promise<Decimal> {
  const row = await services.store.db
    .selectFrom('wallets as w')
    .innerJoin('assets as a', 'a.id', 'w.asset_id')
    .innerJoin('chains as c', 'c.id', 'w.chain_id')
    .select('w.amount')
    .where('w.merchant_id', '=', merchantId)
    .where('a.symbol', '=', asset)
    .where('c.symbol', '=', 'ETH')
    .executeTakeFirst();
  return new Decimal(row?.amount ?? 0);
}

/** checkout.* events the merchant got for one checkout, by type. */
export async function eventTypes(services: Services, checkoutId: string): Promise<string[]> {
  const rows = await services.store.db.selectFrom('events').select(['type', 'data']).orderBy('sequence').execute();
  return rows
    .filter((r) => r.data.includes(checkoutId) && r.type.startsWith('checkout.') && r.type !== 'checkout.created')
    .map((r) => r.type);
}
