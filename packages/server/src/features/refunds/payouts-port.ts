import { RefundLink } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { Decimal } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';

/**
 * The seam to features/payouts (built beside this one): until it is merged, refunds have no
 * payout to request and answer 503 (service.ts: `payouts` undefined). What is left to wire is
 * named here: the payouts' address validator, network fee, `requestPayout` with `refundOf`, the
 * `payouts:write` scope and the Payout schema.
 */
export const REFUND_SCOPE = 'checkout:write' as const;

export const REFUND_RESULT = Type.Union([
  Type.Object({ id: Type.String(), refundOf: Type.String() }, { additionalProperties: true }),
  RefundLink,
]);

/** What earlier refunds of a checkout took: nothing until payouts exist. */
export const refundedSoFar = async (_db: Db, _checkoutId: string): Promise<Decimal> => new Decimal(0);
