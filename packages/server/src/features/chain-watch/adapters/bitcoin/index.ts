export { normalizeBitcoinAddress } from '../../../../chain-families/btc/index.js';
export { bitcoinCoreAdapter } from './core.js';
export { esploraAdapter } from './esplora.js';
export { type BitcoinAdapterOptions, BitcoinNodeError, type FetchLike } from './node.js';
