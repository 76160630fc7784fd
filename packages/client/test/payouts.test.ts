import { describe, expect, expectTypeOf, it } from 'vitest';
import { signV2 as protocolSignV2 } from '@hostpay/protocol';
import { HostpayClient, HostpayError, type Destination, type Payout, type PayoutPage } from '../src/index.js';

/** client.payouts, client.payoutDestinations and the refunds against a scripted fetch: what goes out and what comes back. */
interface Sent {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
}

const SECRET = 'sk_test';
// A payout as the server writes it: decimals as number literals a float would round.
const PAYOUT_JSON = `{"id":"po_1","status":"pending_approval","reason":null,"walletId":"w_1","asset":"ETH","chain":"ETH","network":"ERC20",
  "amount":1234567890.123456789012345678,"networkFee":0.000000000000000001,"total":1234567890.123456789012345679,
  "destination":"0x52908400098527886E0F7030069857D2E4169EE7","destinationId":"dst_1","reference":"inv-7","refundOf":null,"txHash":null,"confirmations":0,
  "createdAt":"2030-01-01T00:00:00.000Z","updatedAt":"2030-01-01T00:00:00.000Z",
  "timeline":[{"status":"pending_approval","reason":null,"at":"2030-01-01T00:00:00.000Z","by":"merchant"}]}`;
const DESTINATION_JSON = `{"id":"dst_1","chain":"ETH","address":"0x52908400098527886E0F7030069857D2E4169EE7","label":"treasury","status":"cooling_off","activeFrom":"2030-01-02T00:00:00.000Z","createdAt":"2030-01-01T00:00:00.000Z","updatedAt":"2030-01-01T00:00:00.000Z"}`;
const ok = (result: string, status = 200, extra = '') =>
  new Response(`{"status":true,"message":"OK","isSuccess":true,"result":${result}${extra}}`, { status });

function scripted(answers: ((sent: Sent) => Response | Promise<Response>)[]) {
  const sent: Sent[] = [];
  const fetch = async (input: string, init: RequestInit) => {
    const s: Sent = {
      method: String(init.method),
      url: new URL(input),
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? init.body : '',
    };
    sent.push(s);
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)];
    if (answer === undefined) throw new Error('no answer scripted');
    return answer(s);
  };
  const client = new HostpayClient({
    baseUrl: 'http://hostpay.test/prefix',
    apiKey: 'hp_1',
    apiSecret: SECRET,
    bearerToken: 'tok',
    fetch,
    retryDelay: () => 0,
  });
  const numbers = new HostpayClient({
    baseUrl: 'http://hostpay.test',
    apiKey: 'hp_1',
    apiSecret: SECRET,
    bearerToken: 'tok',
    fetch,
    amounts: 'number',
  });
  return { client, numbers, sent };
}

const signedV2 = (s: Sent | undefined) =>
  protocolSignV2(SECRET, s?.headers.timestamp ?? '', s?.method ?? '', `${s?.url.pathname}${s?.url.search}`, s?.body);

describe('client.payouts', () => {
  it('create: the body as given with the amount as exact text, signed (v2), with an Idempotency-Key; the answer exact', async () => {
    const { client, sent } = scripted([() => ok(PAYOUT_JSON, 201)]);
    const payout = await client.payouts.create({
      walletId: 'w_1',
      amount: { toFixed: () => '1234567890.123456789012345678' },
      destinationId: 'dst_1',
      reference: 'inv-7',
    });
    const [req] = sent;
    expect([req?.method, req?.url.pathname]).toEqual(['POST', '/prefix/api/v1/cp/payouts']);
    expect(req?.body).toBe(
      '{"walletId":"w_1","amount":"1234567890.123456789012345678","destinationId":"dst_1","reference":"inv-7"}',
    );
    expect(req?.headers['signature-version']).toBe('2');
    expect(req?.headers.signature).toBe(signedV2(req));
    expect(req?.headers['idempotency-key']).toMatch(/^[A-Za-z0-9_.:-]{1,128}$/);
    expect(payout).toMatchObject({
      id: 'po_1',
      amount: '1234567890.123456789012345678',
      networkFee: '0.000000000000000001',
      total: '1234567890.123456789012345679',
      confirmations: 0,
      timeline: [{ status: 'pending_approval', by: 'merchant' }],
    });
    expectTypeOf(payout).toEqualTypeOf<Payout>();
    expectTypeOf(payout.total).toEqualTypeOf<string>();
  });

  it('retries of one create (network error, 503) reuse its Idempotency-Key; a given key and merchantId are sent', async () => {
    const { client, sent } = scripted([
      () => Promise.reject(new TypeError('fetch failed')),
      () =>
        new Response('{"status":false,"message":"busy","isSuccess":false,"error":{"code":"UNAVAILABLE"}}', {
          status: 503,
        }),
      () => ok(PAYOUT_JSON, 201),
    ]);
    await client.payouts.create({ walletId: 'w_1', amount: 5, destination: '0xabc' });
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.headers['idempotency-key'])).size).toBe(1);
    await client.payouts.create(
      { walletId: 'w_1', amount: '5', destinationId: 'dst_1' },
      { idempotencyKey: 'po-17', merchantId: 'mer_sub' },
    );
    expect(sent[3]?.headers['idempotency-key']).toBe('po-17');
    expect(sent[3]?.url.searchParams.get('merchantId')).toBe('mer_sub');
  });

  it('get, cancel and simulate name the payout in the path (encoded); simulate defaults to completed', async () => {
    const { client, sent } = scripted([() => ok(PAYOUT_JSON)]);
    await client.payouts.get('po_1', { merchantId: 'mer_sub' });
    await client.payouts.cancel('po/1');
    await client.payouts.simulate('po_1');
    await client.payouts.simulate('po_1', { outcome: 'failed' }, { idempotencyKey: 'sim-1' });
    expect(sent.map((s) => [s.method, s.url.pathname + s.url.search, s.body])).toEqual([
      ['GET', '/prefix/api/v1/cp/payouts/po_1?merchantId=mer_sub', ''],
      ['POST', '/prefix/api/v1/cp/payouts/po%2F1/cancel', '{}'],
      ['POST', '/prefix/api/v1/cp/payouts/po_1/simulate', '{"outcome":"completed"}'],
      ['POST', '/prefix/api/v1/cp/payouts/po_1/simulate', '{"outcome":"failed"}'],
    ]);
    expect(sent[0]?.headers.signature).toBe(signedV2(sent[0]));
    expect(sent[0]?.headers['idempotency-key']).toBeUndefined();
    expect(sent[3]?.headers['idempotency-key']).toBe('sim-1');
  });

  it('an empty id is refused before anything is sent', async () => {
    const { client, sent } = scripted([() => ok(PAYOUT_JSON)]);
    await expect(client.payouts.get('')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', status: 0 });
    await expect(client.payoutDestinations.revoke('')).rejects.toBeInstanceOf(HostpayError);
    expect(sent).toHaveLength(0);
  });

  it('list sends the filters and returns a page; listAll follows nextCursor to the end', async () => {
    const { client, sent } = scripted([
      (s) =>
        s.url.searchParams.get('cursor') === 'c2'
          ? ok(`[${PAYOUT_JSON.replace('po_1', 'po_2')}]`, 200, ',"nextCursor":null')
          : ok(`[${PAYOUT_JSON}]`, 200, ',"nextCursor":"c2"'),
    ]);
    const first = await client.payouts.list({ status: 'pending_approval', limit: 1 });
    expectTypeOf(first).toEqualTypeOf<PayoutPage>();
    expect(first.nextCursor).toBe('c2');
    expect(first.items[0]?.amount).toBe('1234567890.123456789012345678');
    expect(sent[0]?.url.search).toBe('?status=pending_approval&limit=1');
    const all: string[] = [];
    for await (const p of client.payouts.listAll({ limit: 1 })) all.push(p.id);
    expect(all).toEqual(['po_1', 'po_2']);
    expect(sent.slice(1).map((s) => s.url.search)).toEqual(['?limit=1', '?limit=1&cursor=c2']);
  });

  it("amounts: 'number' gives numbers", async () => {
    const { numbers } = scripted([() => ok(PAYOUT_JSON)]);
    const p = await numbers.payouts.get('po_1');
    expectTypeOf(p.networkFee).toEqualTypeOf<number>();
    expect(p.networkFee).toBe(1e-18);
  });

  it('SIGNATURE_REUSED (the same write signed twice in one second): signed again in the next second, once', async () => {
    const reused = () =>
      new Response(
        '{"status":false,"message":"this signed request was already accepted once","isSuccess":false,"error":{"code":"SIGNATURE_REUSED"}}',
        { status: 409 },
      );
    const { client, sent } = scripted([reused, () => ok(PAYOUT_JSON, 201), reused]);
    await client.payouts.create({ walletId: 'w_1', amount: '5', destinationId: 'dst_1' });
    expect(sent).toHaveLength(2);
    expect(Number(sent[1]?.headers.timestamp)).toBeGreaterThan(Number(sent[0]?.headers.timestamp));
    expect(sent[1]?.headers.signature).toBe(signedV2(sent[1]));
    expect(sent[1]?.headers['idempotency-key']).toBe(sent[0]?.headers['idempotency-key']);
    // Refused again after signing anew: not a collision, so it is the caller's to see.
    await expect(client.payouts.create({ walletId: 'w_1', amount: '5', destinationId: 'dst_1' })).rejects.toMatchObject(
      { code: 'SIGNATURE_REUSED', status: 409 },
    );
    expect(sent).toHaveLength(4);
  });

  it('an error answer rejects with its code (PAYOUT_STATE_CONFLICT), not retried', async () => {
    const { client, sent } = scripted([
      () =>
        new Response(
          '{"status":false,"message":"payout po_1 is completed: only pending_approval or approved payouts can be canceled","isSuccess":false,"error":{"code":"PAYOUT_STATE_CONFLICT"}}',
          { status: 409 },
        ),
    ]);
    await expect(client.payouts.cancel('po_1')).rejects.toMatchObject({ code: 'PAYOUT_STATE_CONFLICT', status: 409 });
    expect(sent).toHaveLength(1);
  });
});

describe('client.payoutDestinations', () => {
  it('create posts chain, address and label; list pages; revoke is a DELETE with an Idempotency-Key and no body', async () => {
    const { client, sent } = scripted([
      () => ok(DESTINATION_JSON, 201),
      () => ok(`[${DESTINATION_JSON}]`, 200, ',"nextCursor":null'),
      () => ok(DESTINATION_JSON.replace('cooling_off', 'revoked')),
    ]);
    const d = await client.payoutDestinations.create({
      chain: 'ETH',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      label: 'treasury',
    });
    expectTypeOf(d).toEqualTypeOf<Destination>();
    expect(d).toMatchObject({ id: 'dst_1', status: 'cooling_off', activeFrom: '2030-01-02T00:00:00.000Z' });
    const page = await client.payoutDestinations.list({ limit: 10 });
    expect(page).toEqual({ items: [d], nextCursor: null });
    const revoked = await client.payoutDestinations.revoke('dst_1');
    expect(revoked.status).toBe('revoked');
    expect(sent.map((s) => [s.method, s.url.pathname + s.url.search, s.body])).toEqual([
      [
        'POST',
        '/prefix/api/v1/cp/payout-destinations',
        '{"chain":"ETH","address":"0x52908400098527886E0F7030069857D2E4169EE7","label":"treasury"}',
      ],
      ['GET', '/prefix/api/v1/cp/payout-destinations?limit=10', ''],
      ['DELETE', '/prefix/api/v1/cp/payout-destinations/dst_1', ''],
    ]);
    expect(sent[2]?.headers['idempotency-key']).toMatch(/^[A-Za-z0-9_.:-]{1,128}$/);
    expect(sent[2]?.headers['content-type']).toBeUndefined();
    expect(sent[2]?.headers.signature).toBe(signedV2(sent[2]));
  });
});

describe('client.checkouts.refund and refundLink', () => {
  it('refund posts {amount, destination} to the checkout and returns the payout (refundOf set)', async () => {
    const refund = PAYOUT_JSON.replace('"refundOf":null', '"refundOf":"chk_1"');
    const { client, sent } = scripted([
      () => ok(refund, 201),
      () => ok('{"url":"http://h/refund/x","expiresAt":"2030-01-08T00:00:00.000Z"}', 201),
    ]);
    const p = await client.checkouts.refund('chk_1', { amount: 0.5, destination: 'TXyz' }, { idempotencyKey: 'r-1' });
    expect(p).toMatchObject({ refundOf: 'chk_1' });
    const link = await client.checkouts.refundLink('chk_1', { amount: '0.25' });
    expect(link.url).toBe('http://h/refund/x');
    expect(sent.map((s) => [s.method, s.url.pathname, s.body, s.headers['idempotency-key'] !== undefined])).toEqual([
      ['POST', '/prefix/api/v1/cp/psp/hosted-pay/chk_1/refunds', '{"amount":"0.5","destination":"TXyz"}', true],
      ['POST', '/prefix/api/v1/cp/psp/hosted-pay/chk_1/refund-link', '{"amount":"0.25"}', true],
    ]);
    expect(sent[0]?.headers['idempotency-key']).toBe('r-1');
  });
});
