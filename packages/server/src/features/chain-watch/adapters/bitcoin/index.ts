export { normalizeBitcoinAddress } from './address.js';
export { bitcoinCoreAdapter } from './core.js';
export { esploraAdapter } from './esplora.js';
export { type BitcoinAdapterOptions, BitcoinNodeError, ChainMovedError, type FetchLike } from './node.js';
