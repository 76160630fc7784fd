import { binance } from './binance.js';
import { coinbase } from './coinbase.js';
import { demo } from './demo.js';
import { ecb } from './ecb.js';
import { kraken } from './kraken.js';
import type { RateProvider } from './provider.js';

/** Every kind of rate source, by the name operators give as `kind`. */
export const PROVIDERS: Readonly<Record<string, RateProvider>> = { coinbase, kraken, binance, ecb, demo };
export const SOURCE_KINDS = Object.keys(PROVIDERS);
export type { FetchContext, Pair, RateProvider } from './provider.js';
export { MalformedAnswer, pairKey } from './provider.js';
