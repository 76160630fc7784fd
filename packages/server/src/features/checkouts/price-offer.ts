import { Decimal, decimalText, type FeePreview, type WithExactNumbers } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { FeeService } from '../fees/preview.js';
import { rateStaleError, staleness, staleText, type StalePair } from '../fees/stale.js';
import type { RateQuote } from '../rates/quote.js';
import type { Candidate, MerchantTerms, Offer } from './create-types.js';
import type { CheckedCreateRequest } from './create-input.js';
import { displayDecimals } from '../catalog/display.js';
import { priceOption, type OptionPricing } from './pricing.js';

/** An option that can be offered: its candidate, its prices and the quote of its rate (null: nothing converted). */
export interface PricedOption {
  c: Candidate;
  p: OptionPricing;
  quote: RateQuote | null;
}

/**
 * Prices every payable candidate of a create at `nowMs`, or throws why none (or, for named
 * options, not all) can be offered: 503 RATE_STALE when only stale rates stand in the way (a
 * retry may succeed), else 422 NO_PAYABLE_OPTION, each with every option's reason in `refused`.
 */
export async function priceOffer(
  fees: FeeService,
  req: CheckedCreateRequest,
  fee: WithExactNumbers<FeePreview>,
  { offer, refused: refusedByCatalog }: Offer,
  terms: MerchantTerms,
  nowMs: number,
): Promise<PricedOption[]> {
  const feeTotal = new Decimal(String(fee.fee));
  const refused = [...refusedByCatalog];
  // Options refused only because a rate is past its maximum age: a retry may offer them.
  const stale: StalePair[] = [];
  let refusedOtherwise = refusedByCatalog.length;
  const priced: PricedOption[] = [];
  for (const c of offer) {
    const converted = c.asset !== req.currency;
    const quote = converted ? await fees.rateOf(req.currency, c.asset) : null;
    const feeQuote = c.asset !== fee.currency ? await fees.rateOf(fee.currency, c.asset) : null;
    const name = `${c.asset} on ${c.chain}`;
    if (converted && quote === null) {
      refused.push(`${name}: no ${req.currency}/${c.asset} rate`);
      refusedOtherwise++;
      continue;
    }
    if (c.asset !== fee.currency && feeQuote === null) {
      refused.push(`${name}: no ${fee.currency}/${c.asset} rate for the fee`);
      refusedOtherwise++;
      continue;
    }
    // Judged now, with the server's clock: a rate goes stale by time passing, not by a write.
    const tooOld = [
      quote && staleness(req.currency, c.asset, quote, nowMs),
      feeQuote && staleness(fee.currency, c.asset, feeQuote, nowMs),
    ].filter((s): s is StalePair => s !== null);
    if (tooOld.length > 0) {
      refused.push(`${name}: ${tooOld.map(staleText).join('; ')}`);
      stale.push(...tooOld);
      continue;
    }
    const p = priceOption({
      amount: req.amount,
      rate: quote?.rate ?? null,
      spreadPercent: new Decimal(terms.spreadPercent),
      assetDecimals: c.assetDecimals,
      displayDecimals: displayDecimals(c.assetDecimals),
      inverseOf: quote?.inverseOf ?? null,
      fee: feeTotal,
      feeRate: feeQuote?.rate ?? null,
    });
    if (!p.payable) {
      refused.push(`${name}: the fee (${decimalText(p.feeInAsset)} ${c.asset}) is not below the amount due`);
      refusedOtherwise++;
    } else priced.push({ c, p, quote });
  }
  // Named options must all be payable; by default the payable ones are offered. When fresh rates
  // would have made it payable, the answer is RATE_STALE (retry later), not NO_PAYABLE_OPTION.
  if (priced.length === 0 || (req.paymentOptions !== null && refused.length > 0)) {
    const what = `no payment option can be offered for ${decimalText(req.amount)} ${req.currency}`;
    if (stale.length > 0 && (req.paymentOptions === null || refusedOtherwise === 0))
      throw rateStaleError(what, stale, { refused });
    throw new HostpayError(
      'NO_PAYABLE_OPTION',
      `${what}: ${refused.join('; ') || 'the merchant has no active wallet'}`,
      {
        refused,
      },
    );
  }
  return priced;
}
