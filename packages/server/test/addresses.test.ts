import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FamilyName } from '../src/chain-families/index.js';
import { deriveAddress, eip55, parseAccountKey, type ChainNetwork } from '../src/features/addresses/derive.js';
import { prefetchStats, setPrefetch, settled } from '../src/features/addresses/prefetch.js';
import { isHostpayError } from '../src/errors.js';
import { readVectorFile } from '../../protocol/test/vectors.js';

interface ChainVector {
  chain: string;
  network: ChainNetwork;
  accountXpub: string;
  slip132?: string;
  addresses: { index: number; address: string; publicKey: string }[];
}
interface InvalidKey {
  chain: string;
  network: ChainNetwork;
  key: string;
  why: string;
}
const doc = readVectorFile<{ chains: ChainVector[]; invalidKeys: InvalidKey[] }>('addresses.json');
const family = (chain: string): FamilyName => (chain === 'BTC' ? 'btc' : chain === 'TRON' ? 'tron' : 'evm');

describe('deposit address derivation (vectors/addresses.json)', () => {
  for (const c of doc.chains) {
    const forms = [['account xpub', c.accountXpub], ...(c.slip132 ? [['SLIP-132 form', c.slip132]] : [])] as const;
    for (const [label, key] of forms) {
      it(`${c.chain} ${c.network}, ${label}: every vector address and public key, byte for byte`, () => {
        const account = parseAccountKey(key, family(c.chain), c.network);
        expect(c.addresses.length).toBeGreaterThanOrEqual(3);
        for (const v of c.addresses) {
          const derived = deriveAddress(account, v.index);
          expect(derived.address, `${c.chain} ${c.network} #${v.index}`).toBe(v.address);
          expect(derived.publicKey).toBe(v.publicKey);
        }
      });
    }
  }

  for (const bad of doc.invalidKeys) {
    it(`refuses ${bad.chain} ${bad.network}: ${bad.why}`, () => {
      let thrown: unknown;
      try {
        parseAccountKey(bad.key, family(bad.chain), bad.network);
      } catch (err) {
        thrown = err;
      }
      expect(isHostpayError(thrown), String(thrown)).toBe(true);
      expect((thrown as { code: string; status: number }).code).toBe('INVALID_BODY');
      expect((thrown as { status: number }).status).toBe(400);
    });
  }

  it('refuses a Bitcoin SLIP-132 or testnet form for an EVM chain, and says which to use', () => {
    const btcTest = doc.chains.find((c) => c.chain === 'BTC' && c.network === 'testnet')!;
    expect(() => parseAccountKey(btcTest.accountXpub, 'evm', 'mainnet')).toThrow(/EVM chains take the xpub/);
  });

  it('gives distinct addresses for distinct indexes (a sample of 200 per chain family)', () => {
    for (const c of doc.chains.filter((x) => x.network === 'mainnet')) {
      const account = parseAccountKey(c.accountXpub, family(c.chain), c.network);
      const seen = new Set(Array.from({ length: 200 }, (_, i) => deriveAddress(account, i).address));
      expect(seen.size).toBe(200);
    }
  });

  it('the points computed ahead on the worker thread give the same addresses as deriving in place', async () => {
    for (const c of doc.chains) {
      const ahead = parseAccountKey(c.accountXpub, family(c.chain), c.network);
      setPrefetch(false);
      const inPlace = parseAccountKey(c.accountXpub, family(c.chain), c.network);
      const expected = Array.from({ length: 150 }, (_, i) => deriveAddress(inPlace, i));
      setPrefetch(true);
      const hitsBefore = prefetchStats.hits;
      const encodedBefore = prefetchStats.encoded;
      const got = [deriveAddress(ahead, 0)];
      for (let i = 1; i < 150; i++) {
        // Let each requested batch land, so that every later index is served from the worker.
        await settled(ahead.receive!);
        got.push(deriveAddress(ahead, i));
      }
      expect(got).toEqual(expected);
      expect(prefetchStats.hits - hitsBefore, `${c.chain} ${c.network}`).toBe(149);
      // The worker spelled those addresses too (encode.ts evaluated there), not just their points.
      expect(prefetchStats.encoded - encodedBefore, `${c.chain} ${c.network}`).toBe(149);
      // And the vectors, through the worker too (indices below what was used are re-derived in place).
      for (const v of c.addresses) expect(deriveAddress(ahead, v.index).address).toBe(v.address);
    }
  });

  it('EIP-55 checksums the EIP-55 examples', () => {
    // The examples published with EIP-55.
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(eip55(a.slice(2).toLowerCase())).toBe(a);
    }
  });

  it('never throws anything but a 400 for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 130 }), fc.constantFrom<FamilyName>('btc', 'evm', 'tron'), (text, fam) => {
        try {
          parseAccountKey(text, fam, 'mainnet');
        } catch (err) {
          expect(isHostpayError(err) && (err as { status: number }).status === 400).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
