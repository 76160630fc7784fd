import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminFixture, type AdminFixture } from './http-helpers/admin-fixture.js';

/**
 * Catalog writes with random bodies: every answer is a 2xx or a 4xx, never a 5xx, whatever the
 * field values (near-valid symbols, families, contracts, numbers out of range, wrong types).
 */
let fx: AdminFixture;
beforeAll(async () => {
  fx = await createAdminFixture();
});
afterAll(() => fx.close());

const anyValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    'btc',
    'EVM',
    'tron',
    'mainnet',
    'regtest',
    'USDT',
    'ETH',
    'BTC',
    'TRON',
    'dai',
    '',
    ' ',
    '0x' + 'a'.repeat(40),
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  ),
  fc.integer({ min: -5, max: 2000 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const body = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: keys.length });

const CASES: [method: string, path: string, keys: string[]][] = [
  ['POST', '/assets', ['symbol', 'name', 'image', 'precision', 'isCrypto', 'active']],
  ['PATCH', '/assets/USDT', ['name', 'image', 'precision', 'isCrypto', 'active']],
  ['POST', '/chains', ['symbol', 'name', 'family', 'networkType', 'confirmationsRequired', 'active']],
  ['PATCH', '/chains/TRON', ['name', 'family', 'networkType', 'confirmationsRequired', 'active']],
  ['PUT', '/chains/BTC/xpub', ['xpub']],
  ['POST', '/networks', ['asset', 'chain', 'name', 'tokenContract', 'depositEnabled']],
  ['PATCH', '/networks/net_usdt_eth', ['name', 'tokenContract', 'depositEnabled']],
];

describe('catalog writes never answer 5xx', () => {
  for (const [method, path, keys] of CASES) {
    it(`${method} ${path}`, async () => {
      await fc.assert(
        fc.asyncProperty(body(keys), async (b) => {
          const res = await fx.call(method, path, { body: b });
          expect(res.statusCode, res.body).toBeLessThan(500);
        }),
        { numRuns: 150 },
      );
    });
  }
});
