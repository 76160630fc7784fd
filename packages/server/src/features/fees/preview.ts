import { Decimal, type FeePreview, type WithExactNumbers } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { Caches, FactCache } from '../../cache/caches.js';
import type { Db } from '../../store/store.js';
import { findAssetBySymbol } from '../catalog/queries.js';
import { findSettlementCurrency, listFeeTiers } from './queries.js';
import { findRates } from '../rates/queries.js';
import { quoteFee } from './engine.js';
import { identityQuote, quoteOfRow, type RateQuote } from '../rates/quote.js';

/** What a fee preview of one merchant and currency depends on besides the amount. */
interface FeeFacts {
  /** The currency the fee is charged in (the merchant's settlement currency for the asked one). */
  currency: string;
  currencyDecimals: number;
  rate: Decimal | null;
  scheduleSource: 'merchant' | 'default';
  tiers: { fromAmount: string; isPercentage: boolean; value: string; minValue: string; onChainFee: string }[];
}

/**
 * Loads what a fee preview needs (schedule, settlement currency, rate) and runs the engine. The
 * facts are kept per merchant and currency until a fee, rate or catalog write drops them, so a
 * preview or checkout of a new amount reads nothing from the store.
 */
export class FeeService {
  readonly #facts: FactCache<FeeFacts>;
  readonly #rates: FactCache<{ quote: RateQuote | null }>;

  constructor(
    private readonly db: Db,
    private readonly caches: Caches,
  ) {
    this.#facts = caches.facts<FeeFacts>(['fees', 'catalog']);
    this.#rates = caches.facts<{ quote: RateQuote | null }>(['fees', 'catalog']);
  }

  async preview(merchantId: string, amount: Decimal, currency: string): Promise<WithExactNumbers<FeePreview>> {
    const facts = await this.caches.through(this.#facts.map, `${merchantId}|${currency}`, () =>
      this.loadFacts(merchantId, currency),
    );
    return quoteFee({ amount, originalCurrency: currency, ...facts });
  }

  /** `resolveRate`, through the rate cache (staleness is the caller's to judge: `rateAge`). */
  async rateOf(base: string, quote: string): Promise<RateQuote | null> {
    return (
      await this.caches.through(this.#rates.map, `${base}|${quote}`, async () => ({
        quote: await resolveRate(this.db, base, quote),
      }))
    ).quote;
  }

  private async loadFacts(merchantId: string, currency: string): Promise<FeeFacts> {
    const asked = await findAssetBySymbol(this.db, currency);
    if (!asked) {
      throw new HostpayError(
        'UNSUPPORTED_CURRENCY',
        `currency ${currency} is not supported; use a currency or asset code hostpay knows, such as EUR, USD or USDT`,
        { currency },
      );
    }
    const rows = await listFeeTiers(this.db, merchantId, currency);
    const own = rows.filter((r) => r.merchant_id === merchantId);
    const chosen = own.length > 0 ? own : rows.filter((r) => r.merchant_id === '');
    if (chosen.length === 0) {
      throw new HostpayError(
        'NO_FEE_SCHEDULE',
        `no fee schedule is configured for ${currency}; ask your account manager to enable it`,
        { currency },
      );
    }
    const feeCurrency = (await findSettlementCurrency(this.db, merchantId, currency)) ?? currency;
    const feeAsset = feeCurrency === currency ? asked : await findAssetBySymbol(this.db, feeCurrency);
    if (!feeAsset) throw new Error(`settlement currency ${feeCurrency} for ${currency} is not a known asset`);
    const rate = feeCurrency === currency ? null : await this.rate(currency, feeCurrency);
    return {
      currency: feeCurrency,
      currencyDecimals: feeAsset.decimals,
      rate,
      scheduleSource: own.length > 0 ? 'merchant' : 'default',
      tiers: chosen.map((r) => ({
        fromAmount: r.from_amount,
        isPercentage: r.is_percentage === 1,
        value: r.value,
        minValue: r.min_value,
        onChainFee: r.on_chain_fee,
      })),
    };
  }

  private async rate(base: string, quote: string): Promise<Decimal> {
    const rate = await resolveRate(this.db, base, quote);
    if (rate !== null) return rate.rate;
    throw new HostpayError(
      'NO_RATE',
      `fees for ${base} are charged in ${quote}, but no ${base}/${quote} rate is configured; try again later or contact support`,
      { base, quote },
    );
  }
}

/**
 * 1 `base` = rate `quote`, from the stored rates: the direct pair, else the inverse of the
 * reverse pair (same source, time and maximum age); null when neither is stored. The same rule
 * for fee previews and checkouts.
 */
export async function resolveRate(db: Db, base: string, quote: string): Promise<RateQuote | null> {
  if (base === quote) return identityQuote(new Date(0).toISOString());
  const rows = await findRates(db, base, quote);
  const direct = rows.find((r) => r.base === base);
  if (direct) return quoteOfRow(direct);
  const inverse = rows.find((r) => r.base === quote);
  if (!inverse) return null;
  const q = quoteOfRow(inverse);
  // 1/rate is rounded at 18 significant fractional digits: inverse rates are a convenience.
  return { ...q, rate: new Decimal(1).dividedBy(q.rate).toDecimalPlaces(18, Decimal.ROUND_HALF_UP) };
}

const shared = new WeakMap<Caches, FeeService>();
/**
 * The fee service of a server's caches: the merchant routes, the operator API and checkouts share
 * one, so they share its fact caches (one load per fact, one copy in memory).
 */
export function feeService(db: Db, caches: Caches): FeeService {
  let service = shared.get(caches);
  if (service === undefined) {
    service = new FeeService(db, caches);
    shared.set(caches, service);
  }
  return service;
}
