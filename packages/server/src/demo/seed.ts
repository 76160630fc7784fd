import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SCOPES, SCOPES } from '@hostpay/protocol';
import type { Services } from '../services.js';
import { DEMO_CHAIN_KEYS, DEMO_CONFIRMATIONS } from './chain-keys.js';
import { seedDemoExplorers } from './explorers.js';

export const DEMO_FILE = 'demo.json';
/**
 * The `source` of the rates the demo pins by hand (EUR/USDT, USD/USDT, and TRX when no feed runs):
 * not `demo`, the demo feed's name, so a quote's `rateSource` tells a pin from a fed rate.
 */
export const DEMO_PIN_SOURCE = 'demo-pin';

export interface DemoCredentials {
  merchantId: string;
  apiKey: string;
  apiSecret: string;
  /** True when this call created the data, false when it reused an earlier run's. */
  created: boolean;
}

/** Wallets of the demo merchant: [asset, chain, active, postings]. */
const WALLETS: [string, string, boolean, [kind: 'credit' | 'freeze', amount: string][]][] = [
  [
    'USDT',
    'TRON',
    true,
    [
      ['credit', '1250.75'],
      ['freeze', '100.25'],
    ],
  ],
  ['USDT', 'ETH', true, [['credit', '980.123456']]],
  [
    'BTC',
    'BTC',
    true,
    [
      ['credit', '0.5321'],
      ['freeze', '0.01'],
    ],
  ],
  [
    'ETH',
    'ETH',
    true,
    [
      ['credit', '3.141592653589793238'],
      ['freeze', '0.5'],
    ],
  ],
  ['TRX', 'TRON', true, []],
];

/**
 * The demo chains get the vectors' test keys and one confirmation, so checkouts can be created
 * at once. Only chains without a key are touched: this also runs on a demo data directory made
 * before checkouts existed, and leaves alone a key (or setting) an operator chose since. Then
 * block-explorer links where a chain has none (explorers.ts), so demo receipts link their hashes.
 */
async function seedDemoChains(services: Services): Promise<void> {
  const { admin } = services;
  const ctx = { operator: 'demo' };
  for (const { chain, xpub } of DEMO_CHAIN_KEYS) {
    if ((await admin.getChain(chain)).accountKey !== null) continue;
    await admin.setChainXpub(chain, xpub, ctx);
    await admin.updateChain(chain, { confirmationsRequired: DEMO_CONFIRMATIONS }, ctx);
  }
  await seedDemoExplorers(services);
}

/**
 * Demo data for a sandbox: one merchant with a key, five wallets with balances and frozen parts,
 * fee schedules (a tiered USDT schedule; BTC fixed; ETH percentage; EUR and USD charged in USDT
 * at a rate), and the demo chains' test keys. Created once per data directory; later runs reuse
 * it and show the same key.
 */
export async function seedDemo(services: Services, dataDir: string): Promise<DemoCredentials> {
  const file = join(dataDir, DEMO_FILE);
  const { admin } = services;
  const ctx = { operator: 'demo' };
  await seedDemoChains(services);
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { merchantId: string; apiKey: string };
    const key = await services.merchant.findApiKey(saved.apiKey);
    if (key) {
      // A demo directory from before the demo key had every scope: widened once, so refunds and
      // payouts work with the printed credentials (a key narrowed by hand is left as it is).
      if (key.scopes.length === DEFAULT_SCOPES.length && DEFAULT_SCOPES.every((s) => key.scopes.includes(s)))
        await admin.updateApiKey(saved.apiKey, { scopes: [...SCOPES] }, ctx);
      return { ...saved, apiSecret: key.secret.toString('utf8'), created: false };
    }
  }
  const merchant = await admin.createMerchant('Demo Shop', ctx);
  // Every scope, payouts:write included: the sandbox's printed key refunds and pays out too (a
  // production key still has to ask for payouts:write by name).
  const key = await admin.createApiKey(merchant.id, { label: 'demo', scopes: [...SCOPES] }, ctx);
  for (const [asset, chain, active, postings] of WALLETS) {
    const wallet = await admin.createWallet({ merchantId: merchant.id, asset, chain, active }, ctx);
    for (const [i, [kind, amount]] of postings.entries()) {
      await admin.post({ walletId: wallet.id, kind, amount, idempotencyKey: `demo-${i}` }, ctx);
    }
  }
  await admin.setFee({ currency: 'USDT', isPercentage: true, value: '1.5', minValue: '1', onChainFee: '1' }, ctx);
  await admin.setFee({ currency: 'USDT', isPercentage: true, value: '1', onChainFee: '1', fromAmount: '10000' }, ctx);
  await admin.setFee(
    { currency: 'USDT', isPercentage: true, value: '0.5', onChainFee: '1', fromAmount: '100000' },
    ctx,
  );
  await admin.setFee({ currency: 'BTC', isPercentage: false, value: '0.0002', onChainFee: '0.00005' }, ctx);
  await admin.setFee({ currency: 'ETH', isPercentage: true, value: '1', minValue: '0.001', onChainFee: '0.0021' }, ctx);
  await admin.setFee({ currency: 'EUR', isPercentage: true, value: '2.5', minValue: '0.5', feeCurrency: 'USDT' }, ctx);
  await admin.setFee({ currency: 'USD', isPercentage: true, value: '2', minValue: '0.5', feeCurrency: 'USDT' }, ctx);
  await admin.setRate({ base: 'EUR', quote: 'USDT', rate: '1.0842', source: DEMO_PIN_SOURCE }, ctx);
  await admin.setRate({ base: 'USD', quote: 'USDT', rate: '0.9998', source: DEMO_PIN_SOURCE }, ctx);
  writeFileSync(file, JSON.stringify({ merchantId: merchant.id, apiKey: key.apiKey }, null, 2) + '\n', { mode: 0o600 });
  return { merchantId: merchant.id, apiKey: key.apiKey, apiSecret: key.apiSecret, created: true };
}
