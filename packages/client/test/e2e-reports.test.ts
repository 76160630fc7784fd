import { SCOPES } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostpayClient, type HostpayError, type ReportRow } from '../src/index.js';
import { startRealServer, type RealServer } from './helpers/real-server.js';

/** client.report against the real server (real socket): rows as an async iterator, exact decimals, errors as HostpayError. */
const ctx = { operator: 'test' };
let server: RealServer;
let client: HostpayClient;
let walletId: string;
const from = new Date(Date.now() - 86_400_000).toISOString();
const to = new Date(Date.now() + 86_400_000).toISOString();

beforeAll(async () => {
  server = await startRealServer({ checkouts: true });
  const { admin } = server.services;
  const merchantId = (await admin.createMerchant('Report Shop', ctx)).id;
  walletId = (await admin.createWallet({ merchantId, asset: 'ETH', chain: 'ETH' }, ctx)).id;
  for (let i = 1; i <= 5; i++) await admin.post({ walletId, kind: 'credit', amount: `${i}.000000000000000001` }, ctx);
  const key = await admin.createApiKey(merchantId, { scopes: [...SCOPES] }, ctx);
  client = new HostpayClient({
    baseUrl: server.url,
    apiKey: key.apiKey,
    apiSecret: key.apiSecret,
    retryDelay: () => 0,
  });
});
afterAll(() => server.close());

describe('client.report', () => {
  it('yields the ledger rows oldest first, amounts exact', async () => {
    const rows: ReportRow[] = [];
    for await (const row of client.report('ledger', { from, to })) rows.push(row);
    expect(rows.map((r) => r.amount)).toEqual([1, 2, 3, 4, 5].map((i) => `${i}.000000000000000001`));
    expect(rows.at(-1)).toMatchObject({
      walletId,
      kind: 'credit',
      balanceAfter: '15.000000000000000005',
      checkoutId: null,
    });
  });

  it('a bad range is the server’s INVALID_QUERY, thrown before any row', async () => {
    const rows = client.report('ledger', { from: to, to: from });
    const e = await rows.next().then(
      () => {
        throw new Error('expected a HostpayError');
      },
      (err: HostpayError) => err,
    );
    expect([e.status, e.code]).toEqual([400, 'INVALID_QUERY']);
  });
});
