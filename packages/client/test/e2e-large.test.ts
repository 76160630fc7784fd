import { parseExactJson } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBigMerchant, type BigMerchant } from '../../../bench/big-merchant.js';
import { HostpayClient } from '../src/index.js';
import { startRealServer, type RealServer } from './helpers/real-server.js';

/** A 1,000-wallet answer over real HTTP: compressed on the wire, exact in the result. */
let server: RealServer;
let big: BigMerchant;
beforeAll(async () => {
  server = await startRealServer();
  big = await seedBigMerchant(server.services, 1000);
});
afterAll(() => server.close());

describe('listWallets on a 1,000-wallet merchant (real server, Node fetch)', () => {
  it('arrives compressed and decodes to exactly the amounts the server holds', async () => {
    const seen: { acceptEncoding: string | undefined; contentEncoding: string | null }[] = [];
    const client = new HostpayClient({
      baseUrl: server.url,
      apiKey: big.apiKey,
      apiSecret: big.apiSecret,
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        seen.push({
          acceptEncoding: (init.headers as Record<string, string>)['accept-encoding'],
          contentEncoding: res.headers.get('content-encoding'),
        });
        return res;
      },
    });
    const wallets = await client.listWallets();
    expect(wallets).toHaveLength(1000);
    const expected = parseExactJson(await server.services.merchant.walletListBody(big.merchantId)) as {
      result: { amount: string; freezeAmount: string }[];
    };
    expect(wallets.map((w) => [w.amount, w.freezeAmount])).toEqual(
      expected.result.map((w) => [w.amount, w.freezeAmount]),
    );
    expect(wallets.some((w) => /\.\d{18}$/.test(w.amount))).toBe(true);
    // The client leaves accept-encoding to the runtime's fetch, which asks only for what it can
    // decode (Node: gzip, deflate); the wallet list came back compressed.
    const list = seen.at(-1)!;
    expect(list.acceptEncoding).toBeUndefined();
    expect(['gzip', 'br']).toContain(list.contentEncoding);
  });
});
