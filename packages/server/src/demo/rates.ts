import type { Services } from '../services.js';

/**
 * What the demo's checkouts are priced with: BTC, ETH and TRX in EUR and USD (USDT goes through
 * the pinned EUR/USDT and USD/USDT), and in USDT, the currency the demo charges EUR and USD fees
 * in (an option's fee is converted into its asset).
 */
export const DEMO_RATE_PAIRS = [
  'BTC/EUR',
  'BTC/USD',
  'BTC/USDT',
  'ETH/EUR',
  'ETH/USD',
  'ETH/USDT',
  'TRX/EUR',
  'TRX/USD',
  'TRX/USDT',
];

/**
 * The demo's rate feed: a `demo` source (no network, so `npm start` works offline) whose prices
 * move a little around fixed values, refreshed at once so the first checkout has its rates. Set up
 * once per data directory; an operator's later change to it is kept.
 */
export async function seedDemoRates(services: Services): Promise<void> {
  const { admin, rates } = services;
  const exists = (await admin.listRateSources()).some((s) => s.id === 'demo');
  if (!exists)
    await admin.setRateSource(
      'demo',
      { kind: 'demo', pairs: DEMO_RATE_PAIRS, refreshSeconds: 30, maxAgeSeconds: 300 },
      { operator: 'demo' },
    );
  await rates.refresher.refresh('demo');
}
