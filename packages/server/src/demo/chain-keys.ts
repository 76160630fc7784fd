/**
 * The demo's account keys: the public test keys of `vectors/addresses.json` (derived from the
 * well-known BIP-39 test mnemonic "abandon abandon … about", so anyone can re-derive the
 * addresses, and no one should send real funds to them). Copied rather than read, because the
 * server never reads the vectors at run time; test/demo-keys.test.ts checks they still match.
 */
export const DEMO_CHAIN_KEYS: readonly { chain: string; xpub: string }[] = [
  // BTC mainnet, BIP-84 m/84'/0'/0', in its SLIP-132 zpub form (the form Sparrow and Electrum show).
  {
    chain: 'BTC',
    xpub: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
  },
  // ETH, BIP-44 m/44'/60'/0'.
  {
    chain: 'ETH',
    xpub: 'xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt',
  },
  // TRON, BIP-44 m/44'/195'/0'.
  {
    chain: 'TRON',
    xpub: 'xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd',
  },
];

/** The contract's demo setting: one confirmation on every chain, so a simulated payment settles at once. */
export const DEMO_CONFIRMATIONS = 1;
