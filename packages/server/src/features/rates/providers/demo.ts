import { Decimal } from '@hostpay/protocol';
import { MalformedAnswer, pairKey, type RateProvider } from './provider.js';

/** Where the demo's prices sit (1 base = rate quote); a pair asked the other way round is the inverse. */
export const DEMO_PRICES: Readonly<Record<string, string>> = {
  'BTC/EUR': '58000',
  'BTC/USD': '63000',
  'ETH/EUR': '3100',
  'ETH/USD': '3370',
  'TRX/EUR': '0.11',
  'TRX/USD': '0.12',
  'USDT/EUR': '0.9223',
  'USDT/USD': '1.0002',
  'EUR/USD': '1.0842',
  // The demo charges EUR and USD fees in USDT: the fee of a BTC, ETH or TRX option is converted through these.
  'BTC/USDT': '62900',
  'ETH/USDT': '3365',
  'TRX/USDT': '0.1195',
};

/** Tenths of a percent, one step a minute: small moves, the same for every instance at the same time. */
const STEPS = [0, 1, 2, 3, 2, 1, 0, -1, -2, -3, -2, -1];

/**
 * The demo source (no network: `npm start` works offline): fixed prices that move a little with
 * the clock, exactly (no float) and deterministically, so a refresh visibly changes the rate.
 */
export const demo: RateProvider = {
  kind: 'demo',
  defaultBaseUrl: null,
  endpoint: '(none: computed from fixed prices)',
  async fetch({ pairs, now }) {
    const step = STEPS[Math.floor(now / 60_000) % STEPS.length]!;
    const factor = new Decimal(1000 + step).dividedBy(1000);
    const out = new Map<string, string>();
    for (const p of pairs) {
      const direct = DEMO_PRICES[pairKey(p)];
      const inverse = DEMO_PRICES[`${p.quote}/${p.base}`];
      if (direct === undefined && inverse === undefined)
        throw new MalformedAnswer(`demo: no price for ${pairKey(p)} (it knows ${Object.keys(DEMO_PRICES).join(', ')})`);
      const price = direct !== undefined ? new Decimal(direct) : new Decimal(1).dividedBy(inverse!);
      out.set(pairKey(p), price.times(factor).toDecimalPlaces(18, Decimal.ROUND_HALF_UP).toFixed());
    }
    return out;
  },
};
