import type { Decimal } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';

// Apart from service.ts so that payouts-port.ts, which implements the seam, does not import the
// service that uses it (service.ts → money.ts → payouts-port.ts would close a loop).

/** Who gave the destination: the merchant (its API) or the payer (a refund link). */
export type RefundSource = 'merchant' | 'payer';

/**
 * What refunds ask of the payouts feature: the seam between the two folders. A refund is a
 * payout with `refundOf`; the payouts feature owns addresses, fees, the freeze and the payout's
 * own events, so this feature never decides any of them itself.
 */
export interface RefundPayouts {
  /** The address as the chain spells it, or 400 INVALID_ADDRESS (the payouts' validator per chain and network). */
  checkAddress(trx: Db, chainId: string, address: string): Promise<string>;
  /** What a payout of `amount` in that asset on that chain would cost in network fee (credited first for an uncredited checkout). */
  networkFee(trx: Db, assetId: string, chainId: string): Promise<Decimal>;
  /** Requests the payout inside `trx` (its freeze, timeline, audit and events); its view and the view's JSON. */
  request(trx: Db, req: RefundPayoutRequest): Promise<{ id: string; total: Decimal; json: string }>;
}

export interface RefundPayoutRequest {
  merchantId: string;
  assetId: string;
  chainId: string;
  amount: Decimal;
  destination: string;
  source: RefundSource;
  refundOf: string;
  at: string;
  /** The payout's id, named before the request (the credit of an uncredited checkout is keyed by it). */
  payoutId?: string | undefined;
}
