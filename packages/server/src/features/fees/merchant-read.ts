import type { Decimal } from '@hostpay/protocol';
import type { MerchantServices } from '../../auth/ports.js';
import type { Caches } from '../../cache/caches.js';
import { andThen } from '../../http/envelope.js';
import { successBody } from '../../http/success-body.js';
import type { Store } from '../../store/store.js';
import { feeService } from './preview.js';

/**
 * The fees' part of the merchant read path: the fee preview as finished JSON text, cached until a
 * fee, settlement or catalog write drops it.
 */
export function feeReads({
  store,
  caches,
  now = Date.now,
}: {
  store: Store;
  caches: Caches;
  /** The clock rates' ages are judged by (tests move it). */
  now: (() => number) | undefined;
}): Pick<MerchantServices, 'feePreviewBody'> {
  const fees = feeService(store.db, caches);
  const bodies = caches.answers(['fees', 'catalog']);
  return {
    feePreviewBody(merchantId: string, amount: Decimal, currency: string, amountText = amount.toFixed()) {
      // A cached answer is only as good as its conversion rate's freshness, judged now (RATE_STALE).
      const nowMs = now();
      return andThen(fees.assertFresh(merchantId, currency, nowMs), () =>
        caches.through(bodies.map, `${merchantId}|${currency}|${amountText}`, async () =>
          successBody(await fees.preview(merchantId, amount, currency, nowMs)),
        ),
      );
    },
  };
}
