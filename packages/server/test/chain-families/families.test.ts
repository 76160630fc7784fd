import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { lib } from '../../src/chain-families/encoding.js';
import type { ChainFamily, ChainNetwork, UriInput } from '../../src/chain-families/family.js';
import {
  defaultConfirmationsText,
  FAMILIES,
  FAMILY_NAMES,
  familyNamesText,
  familyOfKind,
  type FamilyName,
} from '../../src/chain-families/index.js';
import { ADAPTER_KINDS, ADAPTERS } from '../../src/features/chain-watch/adapters/index.js';
import { readVectorFile } from '../../../protocol/test/vectors.js';

interface ChainVector {
  chain: string;
  network: ChainNetwork;
  accountXpub: string;
  addresses: { index: number; address: string; publicKey: string }[];
}
const vectors = readVectorFile<{ chains: ChainVector[] }>('addresses.json').chains;
const FAMILY_OF_VECTOR: Record<string, FamilyName> = { BTC: 'btc', ETH: 'evm', TRON: 'tron' };

const TESTNET = { private: 0x04358394, public: 0x043587cf };

/** The uncompressed point of `<account>/0/index`, derived by @scure/bip32 alone (not the server's fast path). */
function point(v: ChainVector, index: number): Uint8Array {
  const hd = HDKey.fromExtendedKey(v.accountXpub, v.network === 'mainnet' ? undefined : TESTNET);
  return secp256k1.Point.fromBytes(hd.deriveChild(0).deriveChild(index).publicKey!).toBytes(false);
}

const fullMatch = (pattern: string, text: string) => new RegExp(`^(?:${pattern})$`).test(text);

/** What every family must do, against the address vectors (vectors/addresses.json). */
function familyContract(family: ChainFamily, cases: ChainVector[]) {
  it('has vectors', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it('derives and encodes the vector addresses', () => {
    for (const v of cases)
      for (const a of v.addresses)
        expect(
          family.encodeAddress(lib, family.addressPrefix(v.network), point(v, a.index)),
          `${v.network} ${a.index}`,
        ).toBe(a.address);
  });

  it('encodes with its own source alone, as the prefetch worker evaluates it', () => {
    const alone = new Function(`return (${family.encodeAddress.toString()})`)() as ChainFamily['encodeAddress'];
    for (const v of cases) {
      const a = v.addresses[1]!;
      expect(alone(lib, family.addressPrefix(v.network), point(v, a.index))).toBe(a.address);
    }
  });

  it('takes its own addresses as destinations, and matches them as stored', () => {
    for (const v of cases)
      for (const a of v.addresses) {
        expect(family.checkAddress(a.address, v.network)).toEqual({ address: a.address });
        expect(family.matchSpelling(a.address)).toBe(a.address);
        expect(fullMatch(family.addressField(v.network).pattern!, a.address), a.address).toBe(true);
      }
  });

  it('refuses a mistyped address, saying why', () => {
    for (const v of cases) {
      const a = v.addresses[0]!.address;
      const typo = a.slice(0, -1) + (a.endsWith('q') ? 'p' : 'q');
      const verdict = family.checkAddress(typo, v.network);
      expect('why' in verdict && verdict.why.length > 0, typo).toBe(true);
    }
  });

  it('names adapter kinds that exist, served by it only', () => {
    expect(family.adapterKinds.length).toBeGreaterThan(0);
    for (const kind of family.adapterKinds) {
      expect(ADAPTER_KINDS as readonly string[]).toContain(kind);
      expect(familyOfKind(kind)).toBe(family);
    }
  });
}

const cases = (name: FamilyName) => vectors.filter((v) => FAMILY_OF_VECTOR[v.chain] === name);
const uri = (o: Partial<UriInput>): UriInput => ({
  family: '',
  networkType: 'mainnet',
  chain: '',
  address: '',
  tokenContract: null,
  decimals: 8,
  amount: '0',
  ...o,
});

describe('the registry', () => {
  it('maps each stored family name to its implementation', () => {
    expect(FAMILY_NAMES).toEqual(['btc', 'evm', 'tron']);
    for (const name of FAMILY_NAMES) expect(FAMILIES[name].name).toBe(name);
  });

  it('spells the OpenAPI descriptions from the registry as they read before', () => {
    expect(familyNamesText()).toBe('btc, evm or tron');
    expect(familyNamesText(' | ')).toBe('btc | evm | tron');
    expect(defaultConfirmationsText()).toBe('btc 2, evm 12, tron 19');
  });

  it('gives every adapter kind exactly one family, and each adapter says the same family', () => {
    for (const kind of ADAPTER_KINDS) {
      expect(
        FAMILY_NAMES.filter((n) => FAMILIES[n].adapterKinds.includes(kind)),
        kind,
      ).toHaveLength(1);
      const adapter = ADAPTERS[kind]({
        url: 'http://127.0.0.1:1',
        fetch: () => Promise.reject(new Error('no I/O in this test')),
        checkHost: async () => {},
        timeoutMs: 1000,
      });
      expect(adapter.family, kind).toBe(familyOfKind(kind)!.name);
      adapter.close?.();
    }
  });
});

describe('btc', () => {
  const btc = FAMILIES.btc;
  familyContract(btc, cases('btc'));

  it('stores bech32 in lower case and takes base58 P2PKH/P2SH of its network', () => {
    const a = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
    expect(btc.checkAddress(a.toUpperCase(), 'mainnet')).toEqual({ address: a });
    expect(btc.checkAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'mainnet')).toEqual({
      address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
    });
    expect(btc.checkAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'testnet')).toEqual({
      why: 'not a P2PKH/P2SH address of testnet',
    });
    expect(btc.checkAddress('1111111111111111111114oLvT2', 'mainnet')).toEqual({
      why: 'a hash of zero bytes (a burn address)',
      burn: true,
    });
  });

  it('takes BIP-84 keys of its network only', () => {
    expect(btc.refuseKeyForm({ name: 'zpub', testnet: false, segwit: true }, 'mainnet')).toBeUndefined();
    expect(btc.refuseKeyForm({ name: 'tpub', testnet: true, segwit: false }, 'mainnet')).toBe(
      'a tpub is a testnet key and this chain is mainnet: use xpub or zpub',
    );
    expect(btc.purpose).toBe(84);
  });

  it('BIP-21 URI with the amount in BTC rounded up; no token contracts; 2 confirmations; esplora first', () => {
    const address = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
    expect(btc.paymentUri(uri({ family: 'btc', address, amount: '0.000000011' }))).toBe(
      `bitcoin:${address}?amount=0.00000002`,
    );
    expect(btc.walletScheme).toBe(true);
    expect(btc.tokens).toBeNull();
    expect(btc.defaultConfirmations).toBe(2);
    expect(btc.nativeDecimals).toBe(8);
    expect(btc.adapterKinds).toEqual(['esplora', 'bitcoin-core']);
    expect(btc.hotWallet).toBe(false);
  });
});

describe('evm', () => {
  const evm = FAMILIES.evm;
  familyContract(evm, cases('evm'));
  const a = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';

  it('matches and stores any single-case spelling in EIP-55; refuses a bad checksum and burn addresses', () => {
    expect(evm.matchSpelling(a.toLowerCase())).toBe(a);
    expect(evm.checkAddress(a.toLowerCase(), 'mainnet')).toEqual({ address: a });
    expect(evm.checkAddress(a.replace('E', 'e'), 'mainnet')).toEqual({
      why: 'mixed case that fails the EIP-55 checksum',
    });
    expect(evm.checkAddress(`0x${'0'.repeat(40)}`, 'mainnet')).toMatchObject({ burn: true });
  });

  it("takes m/44'/60' xpubs, not Bitcoin forms", () => {
    expect(evm.refuseKeyForm({ name: 'xpub', testnet: false, segwit: false }, 'mainnet')).toBeUndefined();
    expect(evm.refuseKeyForm({ name: 'zpub', testnet: false, segwit: true }, 'mainnet')).toBe(
      "zpub is a Bitcoin form: EVM chains take the xpub of m/44'/60'/0'",
    );
  });

  it('ERC-20 contracts in EIP-55 (watched in lower case), EIP-681 URIs, 12 confirmations, the hot wallet', () => {
    const usdt = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
    expect(evm.tokens!.check(usdt.toLowerCase())).toEqual({ contract: usdt });
    expect(evm.tokens!.check(usdt.replace('d', 'D'))).toMatchObject({ why: expect.stringContaining('EIP-55') });
    expect(evm.tokens!.watchSpelling(usdt)).toBe(usdt.toLowerCase());
    expect(
      evm.paymentUri(uri({ family: 'evm', chain: 'ETH', address: a, tokenContract: usdt, decimals: 6, amount: '1.5' })),
    ).toBe(`ethereum:${usdt}@1/transfer?address=${a}&uint256=1500000`);
    expect(evm.paymentUri(uri({ family: 'evm', chain: 'BSC', address: a, decimals: 18, amount: '1' }))).toBe(
      `ethereum:${a}?value=1000000000000000000`,
    );
    expect(evm.defaultConfirmations).toBe(12);
    expect(evm.nativeDecimals).toBe(18);
    expect(evm.adapterKinds).toEqual(['evm-rpc']);
    expect(evm.hotWallet).toBe(true);
  });
});

describe('tron', () => {
  const tron = FAMILIES.tron;
  familyContract(tron, cases('tron'));
  const a = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';

  it('keeps base58 as written; refuses other prefixes and the black hole', () => {
    expect(tron.matchSpelling(a)).toBe(a);
    expect(tron.checkAddress('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'mainnet')).toEqual({
      why: 'TRON addresses start with T',
    });
    expect(tron.checkAddress('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', 'mainnet')).toMatchObject({ burn: true });
  });

  it('TRC-20 contracts in base58, the plain address in the QR code, 19 confirmations', () => {
    const usdt = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    expect(tron.tokens!.check(` ${usdt} `)).toEqual({ contract: usdt });
    expect(tron.tokens!.check('0xdAC17F958D2ee523a2206206994597C13D831ec7')).toMatchObject({
      why: expect.stringContaining('TRON'),
    });
    expect(tron.tokens!.pattern.test(usdt)).toBe(true);
    expect(tron.paymentUri(uri({ family: 'tron', address: a, decimals: 6, amount: '5' }))).toBe(a);
    expect(tron.walletScheme).toBe(false);
    expect(tron.refuseKeyForm({ name: 'vpub', testnet: true, segwit: true }, 'mainnet')).toBe(
      "vpub is a Bitcoin form: TRON take the xpub of m/44'/195'/0'",
    );
    expect(tron.defaultConfirmations).toBe(19);
    expect(tron.nativeDecimals).toBe(6);
    expect(tron.adapterKinds).toEqual(['tron-http']);
  });
});
