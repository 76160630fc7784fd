import { SCOPES } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostpayClient, type HostpayError } from '../src/index.js';
import { startRealServer, type RealServer } from './helpers/real-server.js';

/** client.payouts and client.payoutDestinations against the real server (sandbox, embedded SQLite, real socket). */
const ctx = { operator: 'test' };
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
let server: RealServer;
let merchantId: string;
let walletId: string;
let client: HostpayClient;
let readOnly: HostpayClient;

beforeAll(async () => {
  server = await startRealServer({ checkouts: true });
  const { admin } = server.services;
  merchantId = (await admin.createMerchant('Payout Shop', ctx)).id;
  walletId = (await admin.createWallet({ merchantId, asset: 'USDT', chain: 'TRON' }, ctx)).id;
  await admin.post({ walletId, kind: 'credit', amount: '100.000001' }, ctx);
  const key = await admin.createApiKey(merchantId, { scopes: [...SCOPES] }, ctx);
  // Created without scopes: every scope but payouts:write.
  const plain = await admin.createApiKey(merchantId, {}, ctx);
  const options = { baseUrl: server.url, retryDelay: () => 0 };
  client = new HostpayClient({ ...options, apiKey: key.apiKey, apiSecret: key.apiSecret });
  readOnly = new HostpayClient({ ...options, apiKey: plain.apiKey, apiSecret: plain.apiSecret });
});
afterAll(() => server.close());

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a HostpayError');
    },
    (e: HostpayError) => e,
  );
const balance = async () => {
  const w = (await client.listWallets()).find((x) => x.id === walletId);
  return { amount: w?.amount, frozen: w?.freezeAmount };
};

describe('client.payoutDestinations and client.payouts against the real server', () => {
  it('a new destination cools off: a payout to it is refused and nothing is frozen', async () => {
    const d = await client.payoutDestinations.create({ chain: 'tron', address: TRON_ADDRESS, label: 'cold' });
    expect(d).toMatchObject({ chain: 'TRON', address: TRON_ADDRESS, label: 'cold', status: 'cooling_off' });
    expect(Date.parse(d.activeFrom) - Date.parse(d.createdAt)).toBe(24 * 3_600_000);
    const e = await fail(client.payouts.create({ walletId, amount: '1', destinationId: d.id }));
    expect([e.status, e.code]).toEqual([422, 'DESTINATION_NOT_ACTIVE']);
    expect(await balance()).toEqual({ amount: '100.000001', frozen: '0' });
    const revoked = await client.payoutDestinations.revoke(d.id);
    expect(revoked.status).toBe('revoked');
  });

  it('an address not valid on its chain is INVALID_ADDRESS; a key without payouts:write is SCOPE_MISSING', async () => {
    const e = await fail(client.payoutDestinations.create({ chain: 'TRON', address: '0xnot-tron' }));
    expect([e.status, e.code]).toEqual([400, 'INVALID_ADDRESS']);
    const denied = await fail(readOnly.payouts.create({ walletId, amount: '1', destination: TRON_ADDRESS }));
    expect([denied.status, denied.code]).toEqual([403, 'SCOPE_MISSING']);
  });

  it('request → pending_approval (total frozen, exact) → operator approves → simulate completed: debited', async () => {
    await server.services.admin.updateMerchant(merchantId, { payoutCoolingOffHours: 0 }, ctx);
    const d = await client.payoutDestinations.create({ chain: 'TRON', address: TRON_ADDRESS });
    expect(d.status).toBe('active');
    const p = await client.payouts.create(
      { walletId, amount: '40.000001', destinationId: d.id, reference: 'inv-1' },
      { idempotencyKey: 'e2e-payout-1' },
    );
    expect(p).toMatchObject({
      status: 'pending_approval',
      amount: '40.000001',
      destination: TRON_ADDRESS,
      destinationId: d.id,
      reference: 'inv-1',
      refundOf: null,
      asset: 'USDT',
      chain: 'TRON',
    });
    expect(p.total).toBe(p.networkFee === '0' ? p.amount : expect.any(String));
    expect(await balance()).toEqual({ amount: '100.000001', frozen: p.total });
    // The same Idempotency-Key and body: the first answer again, nothing frozen twice.
    const again = await client.payouts.create(
      { walletId, amount: '40.000001', destinationId: d.id, reference: 'inv-1' },
      { idempotencyKey: 'e2e-payout-1' },
    );
    expect(again.id).toBe(p.id);
    expect((await balance()).frozen).toBe(p.total);

    // Only an approved payout can be simulated.
    const early = await fail(client.payouts.simulate(p.id));
    expect([early.status, early.code]).toEqual([409, 'PAYOUT_STATE_CONFLICT']);
    await server.services.payouts.approve(p.id, ctx);
    const done = await client.payouts.simulate(p.id, { outcome: 'completed' });
    expect(done.status).toBe('completed');
    expect(done.timeline.map((t) => [t.status, t.by])).toEqual([
      ['pending_approval', 'merchant'],
      ['approved', 'operator'],
      ['sent', 'system'],
      ['completed', 'system'],
    ]);
    expect(await balance()).toEqual({ amount: '60', frozen: '0' });
    await expect(client.payouts.get(p.id)).resolves.toMatchObject({ status: 'completed', txHash: done.txHash });
  });

  it('cancel unfreezes; a payout by address; list filters by status and listAll pages through every payout', async () => {
    const p = await client.payouts.create({ walletId, amount: 5, destination: TRON_ADDRESS });
    expect((await balance()).frozen).toBe(p.total);
    const canceled = await client.payouts.cancel(p.id);
    expect(canceled.status).toBe('canceled');
    expect((await balance()).frozen).toBe('0');
    const again = await fail(client.payouts.cancel(p.id));
    expect([again.status, again.code]).toEqual([409, 'PAYOUT_STATE_CONFLICT']);

    const page = await client.payouts.list({ status: 'canceled' });
    expect(page.items.map((x) => x.id)).toEqual([p.id]);
    const all: string[] = [];
    for await (const x of client.payouts.listAll({ limit: 1 })) all.push(x.id);
    expect(all).toHaveLength(2);
    expect(new Set(all).size).toBe(2);
    expect(all).toContain(p.id);
  });

  it('more than the wallet holds is INSUFFICIENT_FUNDS and freezes nothing; another merchant cannot see a payout', async () => {
    const e = await fail(client.payouts.create({ walletId, amount: '60.5', destination: TRON_ADDRESS }));
    expect([e.status, e.code]).toEqual([422, 'INSUFFICIENT_FUNDS']);
    expect((await balance()).frozen).toBe('0');
    const other = new HostpayClient({
      baseUrl: server.url,
      apiKey: server.demo.apiKey,
      apiSecret: server.demo.apiSecret,
      retryDelay: () => 0,
    });
    const [first] = (await client.payouts.list()).items;
    const hidden = await fail(other.payouts.get(first?.id ?? ''));
    expect([hidden.status, hidden.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('destinations list pages through the address book', async () => {
    const page = await client.payoutDestinations.list({ limit: 1 });
    expect(page.items).toHaveLength(1);
    const all = [];
    for await (const d of client.payoutDestinations.listAll({ limit: 1 })) all.push(d);
    expect(all.map((d) => d.status).sort()).toEqual(['active', 'revoked']);
  });

  it('checkouts.refund pays a settled checkout back (a payout with refundOf); without a destination, a refund link', async () => {
    const c = await client.checkouts.create({
      amount: '20',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    const settled = await client.checkouts.simulatePayment(c.id, { asset: 'USDT', chain: 'TRON' });
    expect(settled.status).toBe('settled');
    const refund = await client.checkouts.refund(c.id, { amount: '5.5', destination: TRON_ADDRESS });
    expect(refund).toMatchObject({
      refundOf: c.id,
      amount: '5.5',
      asset: 'USDT',
      chain: 'TRON',
      destination: TRON_ADDRESS,
    });
    const again = await client.payouts.get('id' in refund ? refund.id : '');
    expect(again.refundOf).toBe(c.id);

    const tooMuch = await fail(client.checkouts.refund(c.id, { amount: '15' }));
    expect([tooMuch.status, tooMuch.code]).toEqual([422, 'REFUND_TOO_LARGE']);

    const link = await client.checkouts.refundLink(c.id, { amount: '1.25' });
    expect(link).toMatchObject({ checkoutId: c.id, amount: '1.25', asset: 'USDT', chain: 'TRON' });
    expect(link.url.startsWith(server.url)).toBe(true);
    const open = await client.checkouts.refundLink(c.id);
    expect(open.amount).toBeNull();
    const viaRefund = await client.checkouts.refund(c.id, { amount: '2' });
    expect(viaRefund).toMatchObject({ checkoutId: c.id, amount: '2' });
    expect('url' in viaRefund && viaRefund.url).toMatch(/^http/);
    // Mailed to the payer: the checkout has no customerEmail, so the call must name one.
    const noAddress = await fail(client.checkouts.refundLink(c.id, { amount: '1', sendEmail: true }));
    expect([noAddress.status, noAddress.code]).toEqual([422, 'CUSTOMER_EMAIL_MISSING']);
    const mailed = await client.checkouts.refund(c.id, {
      amount: '1',
      sendEmail: true,
      customerEmail: 'payer@example.com',
    });
    expect('url' in mailed && mailed.amount).toBe('1');
  });
});
