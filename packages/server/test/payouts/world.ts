import { writeExactJson } from '@hostpay/protocol';
import type { Services } from '../../src/services.js';

/** Test set-up shared by the payout tests: a merchant with a funded USDT wallet on TRON and an active destination. */
export const ctx = { operator: 'test' };
export const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const ETH_ADDRESS = '0xdAC17F958D2ee523a2206206994597C13D831ec7';

export interface PayoutWorld {
  merchantId: string;
  walletId: string;
  destinationId: string;
}

export async function payoutWorld(
  services: Services,
  opts: { balance?: string; coolingOffHours?: number; name?: string } = {},
): Promise<PayoutWorld> {
  const { admin } = services;
  const merchantId = (await admin.createMerchant(opts.name ?? 'Payout Shop', ctx)).id;
  const walletId = (await admin.createWallet({ merchantId, asset: 'USDT', chain: 'TRON' }, ctx)).id;
  if (opts.balance !== '0') await admin.post({ walletId, kind: 'credit', amount: opts.balance ?? '100' }, ctx);
  await admin.updateMerchant(merchantId, { payoutCoolingOffHours: 0 }, ctx);
  const destinationId = (await services.payouts.addDestination(merchantId, { chain: 'TRON', address: TRON_ADDRESS }))
    .id;
  if (opts.coolingOffHours !== undefined)
    await admin.updateMerchant(merchantId, { payoutCoolingOffHours: opts.coolingOffHours }, ctx);
  return { merchantId, walletId, destinationId };
}

export async function balances(services: Services, walletId: string) {
  const w = await services.admin.getWallet(walletId);
  return { amount: String(w.amount), frozen: String(w.freezeAmount) };
}

/** The merchant's events, oldest first: type and data.object. */
export async function eventsOf(services: Services, merchantId: string) {
  const rows = await services.store.db
    .selectFrom('events')
    .select(['type', 'data', 'sequence'])
    .where('merchant_id', '=', merchantId)
    .orderBy('sequence')
    .execute();
  return rows.map((r) => ({
    type: r.type,
    object: (JSON.parse(r.data) as { object: Record<string, unknown> }).object,
  }));
}

/** A service answer as its JSON reads (exact decimals as numbers: the test amounts are small). */
export function plain<T>(value: T): Record<string, unknown> {
  return JSON.parse(writeExactJson(value)) as Record<string, unknown>;
}
