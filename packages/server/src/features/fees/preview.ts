import { Decimal, type FeePreview, type WithExactNumbers } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { Caches, FactCache } from '../../cache/caches.js';
import type { Db } from '../../store/store.js';
import { findAssetBySymbol } from '../catalog/queries.js';
import { findSettlementCurrency, listFeeTiers } from './queries.js';
import { findRates } from '../rates/queries.js';
import { quoteFee } from './engine.js';
import { identityQuote, quoteOfRow, type RateQuote } from '../rates/quote.js';
import { rateStaleError, staleness } from './stale.js';

/** What a fee preview of one merchant and currency depends on besides the amount. */
interface FeeFacts {
  /** The currency the fee is charged in (the merchant's settlement currency for the asked one). */
  currency: string;
  currencyDecimals: number;
  rate: Decimal | null;
  /** The quote `rate` came from: kept so that its age is judged at each preview, not when cached. */
  rateQuote: RateQuote | null;
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

  /**
   * The fee of `amount`; 503 RATE_STALE when its conversion rate is past its maximum age at
   * `nowMs` (the server's clock at the moment of use).
   */
  async preview(
    merchantId: string,
    amount: Decimal,
    currency: string,
    nowMs = Date.now(),
  ): Promise<WithExactNumbers<FeePreview>> {
    const facts = await this.facts(merchantId, currency);
    checkFresh(currency, facts, nowMs);
    const { currency: feeCurrency, currencyDecimals, rate, scheduleSource, tiers } = facts;
    return quoteFee({
      amount,
      originalCurrency: currency,
      currency: feeCurrency,
      currencyDecimals,
      rate,
      scheduleSource,
      tiers,
    });
  }

  /**
   * Throws what `preview` would for a stale conversion rate: the gate in front of an answer cache
   * of previews (merchant-services.ts), whose texts outlive the rate's freshness. Answered in the
   * same turn when the facts are cached.
   */
  assertFresh(merchantId: string, currency: string, nowMs = Date.now()): void | Promise<void> {
    const facts = this.facts(merchantId, currency);
    return facts instanceof Promise
      ? facts.then((f) => checkFresh(currency, f, nowMs))
      : checkFresh(currency, facts, nowMs);
  }

  private facts(merchantId: string, currency: string): FeeFacts | Promise<FeeFacts> {
    return this.caches.through(this.#facts.map, `${merchantId}|${currency}`, () =>
      this.loadFacts(merchantId, currency),
    );
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
    const rateQuote = feeCurrency === currency ? null : await this.rate(currency, feeCurrency);
    return {
      currency: feeCurrency,
      currencyDecimals: feeAsset.decimals,
      rate: rateQuote?.rate ?? null,
      rateQuote,
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

  private async rate(base: string, quote: string): Promise<RateQuote> {
    const rate = await resolveRate(this.db, base, quote);
    if (rate !== null) return rate;
    throw new HostpayError(
      'NO_RATE',
      `fees for ${base} are charged in ${quote}, but no ${base}/${quote} rate is configured; try again later or contact support`,
      { base, quote },
    );
  }
}

function checkFresh(currency: string, facts: FeeFacts, nowMs: number): void {
  if (facts.rateQuote === null) return;
  const stale = staleness(currency, facts.currency, facts.rateQuote, nowMs);
  if (stale !== null) throw rateStaleError(`fees for ${currency} are charged in ${facts.currency}`, [stale]);
}

/**
 * 1 `base` = rate `quote`, from the stored rates: the direct pair, else the inverse of the
 * reverse pair (same source, time and maximum age); null when neither is stored. The same rule
 * for fee previews and checkouts.
 */
export async function resolveRate(db: Db, base: string, quote: string): Promise<RateQuote | null> {
  // Its time is never shown: it is never stale, and an option in its own currency records the
  // checkout's creation as its rateAt (checkouts/create.ts); a fixed time keeps it cacheable.
  if (base === quote) return identityQuote(new Date(0).toISOString());
  const rows = await findRates(db, base, quote);
  const direct = rows.find((r) => r.base === base);
  if (direct) return quoteOfRow(direct);
  const inverse = rows.find((r) => r.base === quote);
  if (!inverse) return null;
  const q = quoteOfRow(inverse);
  // 1/rate is rounded at 18 significant fractional digits: inverse rates are a convenience.
  return {
    ...q,
    rate: new Decimal(1).dividedBy(q.rate).toDecimalPlaces(18, Decimal.ROUND_HALF_UP),
    inverseOf: q.rate,
  };
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
