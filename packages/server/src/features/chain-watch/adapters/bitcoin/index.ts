export { normalizeBitcoinAddress } from './address.js';
export { bitcoinCoreAdapter } from './core.js';
export { esploraAdapter } from './esplora.js';
export { type BitcoinAdapterOptions, BitcoinNodeError, type FetchLike } from './node.js';
