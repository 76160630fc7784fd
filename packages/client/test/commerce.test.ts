import { describe, expect, it } from 'vitest';
import { signV2 as protocolSignV2 } from '@hostpay/protocol';
import { HostpayClient, HostpayError } from '../src/index.js';

/** client.paymentLinks and client.invoices against a scripted fetch: what goes out and what comes back. */
interface Sent {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
}

const SECRET = 'sk_test';
const LINK_JSON = `{"id":"plink_1","slug":"s","url":"http://x/l/s","name":"N","description":null,"currency":"EUR",
  "amount":1234567890.123456789012345678,"minAmount":null,"maxAmount":null,
  "lineItems":[{"name":"A","quantity":2,"unitAmount":617283945.061728394506172839}],"paymentOptions":null,
  "collectEmail":"none","successUrl":null,"cancelUrl":null,"maxUses":3,"uses":0,"expiresAt":null,"active":false,
  "status":"inactive","metadata":{},"createdAt":"2030-01-01T00:00:00.000Z","updatedAt":"2030-01-01T00:00:00.000Z"}`;
const INVOICE_JSON = `{"id":"inv_1","number":null,"status":"draft","customer":{"name":null,"email":null},
  "lineItems":[{"description":"D","quantity":1.000001,"unitAmount":0.1,"taxPercent":null,"amount":0.1,"tax":0}],
  "subtotal":0.1,"tax":0,"total":0.1,"currency":"EUR","amountPaid":0,"amountDue":0,"dueAt":null,"memo":null,
  "metadata":{},"url":null,"checkoutIds":[],"finalizedAt":null,"paidAt":null,"sentAt":null,
  "createdAt":"2030-01-01T00:00:00.000Z","updatedAt":"2030-01-01T00:00:00.000Z"}`;
const ok = (result: string, status = 200, extra = '') =>
  new Response(`{"status":true,"message":"OK","isSuccess":true,"result":${result}${extra}}`, { status });

function scripted(answer: (sent: Sent) => Response) {
  const sent: Sent[] = [];
  const fetch = async (input: string, init: RequestInit) => {
    const s: Sent = {
      method: String(init.method),
      url: new URL(input),
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? init.body : '',
    };
    sent.push(s);
    return answer(s);
  };
  const options = { baseUrl: 'http://hostpay.test', apiKey: 'hp_1', apiSecret: SECRET, bearerToken: 'tok', fetch };
  return { client: new HostpayClient(options), sent };
}

const signedV2 = (s: Sent | undefined) =>
  protocolSignV2(SECRET, s?.headers.timestamp ?? '', s?.method ?? '', `${s?.url.pathname}${s?.url.search}`, s?.body);

describe('client.paymentLinks', () => {
  it('create: amounts as exact text, a Date as ISO text, an Idempotency-Key; the answer exact', async () => {
    const { client, sent } = scripted(() => ok(LINK_JSON, 201));
    const link = await client.paymentLinks.create(
      {
        name: 'N',
        currency: 'EUR',
        amount: 1234567890n,
        lineItems: [{ name: 'A', quantity: 2, unitAmount: { toFixed: () => '617283945' } }],
        expiresAt: new Date('2030-02-01T00:00:00Z'),
      },
      { idempotencyKey: 'link-1' },
    );
    const [req] = sent;
    expect([req?.method, req?.url.pathname, req?.headers['idempotency-key']]).toEqual([
      'POST',
      '/api/v1/cp/payment-links',
      'link-1',
    ]);
    expect(req?.body).toBe(
      '{"name":"N","currency":"EUR","amount":"1234567890","lineItems":[{"name":"A","quantity":2,"unitAmount":"617283945"}],"expiresAt":"2030-02-01T00:00:00.000Z"}',
    );
    expect(link.amount).toBe('1234567890.123456789012345678');
    expect(link.lineItems?.[0]).toEqual({ name: 'A', quantity: '2', unitAmount: '617283945.061728394506172839' });
    expect(link.maxUses).toBe(3);
  });

  it('update and deactivate are a signed PATCH with an Idempotency-Key; null clears; list sends active as text', async () => {
    const { client, sent } = scripted((s) =>
      s.method === 'GET' ? ok(`[${LINK_JSON}]`, 200, ',"nextCursor":"c2"') : ok(LINK_JSON),
    );
    await client.paymentLinks.update('plink_1', { description: null, expiresAt: null, maxUses: 3 });
    await client.paymentLinks.deactivate('plink_1');
    const page = await client.paymentLinks.list({ active: false, limit: 5 });
    const [update, deactivate, list] = sent;
    expect([update?.method, update?.url.pathname, update?.body]).toEqual([
      'PATCH',
      '/api/v1/cp/payment-links/plink_1',
      '{"description":null,"expiresAt":null,"maxUses":3}',
    ]);
    expect(update?.headers.signature).toBe(signedV2(update));
    expect(update?.headers['idempotency-key']).toMatch(/^[A-Za-z0-9_.:-]{1,128}$/);
    expect([deactivate?.method, deactivate?.body]).toEqual(['PATCH', '{"active":false}']);
    expect(list?.url.search).toBe('?active=false&limit=5');
    expect([page.items.length, page.nextCursor]).toEqual([1, 'c2']);
    await expect(client.paymentLinks.get('')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(sent).toHaveLength(3);
  });
});

describe('client.invoices', () => {
  it('update sends every line amount as exact text and keeps null; moves POST {}; delete has no body', async () => {
    const { client, sent } = scripted(() => ok(INVOICE_JSON));
    const draft = await client.invoices.update('inv_1', {
      lineItems: [{ description: 'D', quantity: 1.000001, unitAmount: '0.1', taxPercent: 7.25 }],
      dueAt: null,
    });
    await client.invoices.void('inv_1');
    await client.invoices.markUncollectible('inv_1');
    await client.invoices.delete('inv_1');
    const [update, voided, uncollectible, removed] = sent;
    expect([update?.method, update?.url.pathname, update?.body]).toEqual([
      'PATCH',
      '/api/v1/cp/invoices/inv_1',
      '{"lineItems":[{"description":"D","quantity":"1.000001","unitAmount":"0.1","taxPercent":"7.25"}],"dueAt":null}',
    ]);
    expect([voided?.method, voided?.url.pathname, voided?.body]).toEqual([
      'POST',
      '/api/v1/cp/invoices/inv_1/void',
      '{}',
    ]);
    expect(uncollectible?.url.pathname).toBe('/api/v1/cp/invoices/inv_1/mark-uncollectible');
    expect([removed?.method, removed?.body, removed?.headers['idempotency-key']]).toEqual([
      'DELETE',
      '',
      expect.any(String),
    ]);
    expect(draft.lineItems[0]).toMatchObject({ quantity: '1.000001', unitAmount: '0.1', taxPercent: null });
  });

  it('pdf asks for a PDF and answers its bytes; an error envelope is a HostpayError', async () => {
    const bytes = new Uint8Array([37, 80, 68, 70, 45, 0, 255]);
    const { client, sent } = scripted((s) =>
      s.url.pathname.includes('inv_draft')
        ? new Response(
            '{"status":false,"message":"a draft has no PDF","isSuccess":false,"error":{"code":"INVOICE_STATE_CONFLICT","requestId":"req_1"}}',
            { status: 409, headers: { 'content-type': 'application/json' } },
          )
        : new Response(bytes, { status: 200, headers: { 'content-type': 'application/pdf' } }),
    );
    expect(await client.invoices.pdf('inv_1')).toEqual(bytes);
    expect([sent[0]?.url.pathname, sent[0]?.headers.accept]).toEqual([
      '/api/v1/cp/invoices/inv_1/pdf',
      'application/pdf, application/json',
    ]);
    const error = await client.invoices.pdf('inv_draft').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostpayError);
    expect(error).toMatchObject({ status: 409, code: 'INVOICE_STATE_CONFLICT', requestId: 'req_1' });
  });
});

describe('client.settings', () => {
  const SETTINGS_JSON =
    '{"displayName":null,"logoUrl":null,"successUrl":null,"cancelUrl":null,"legalName":null,"address":null,"taxId":null,"supportEmail":null,"invoicePrefix":null,"emailReceipts":true,"brandColor":"#8b7500","accentColor":null,"language":"de"}';

  it('reads and changes the settings, the PATCH with an Idempotency-Key', async () => {
    const { client, sent } = scripted(() => ok(SETTINGS_JSON));
    expect(await client.settings.get()).toMatchObject({ brandColor: '#8b7500', language: 'de' });
    await client.settings.update({ brandColor: '#8B7500', language: 'de', accentColor: null });
    expect(sent.map((s) => `${s.method} ${s.url.pathname}`)).toEqual([
      'GET /api/v1/cp/settings',
      'PATCH /api/v1/cp/settings',
    ]);
    expect(JSON.parse(sent[1]?.body ?? '')).toEqual({ brandColor: '#8B7500', language: 'de', accentColor: null });
    expect(sent[1]?.headers['idempotency-key']).toMatch(/.+/);
  });

  it("a refused colour is a HostpayError with the server's message", async () => {
    const message = 'brandColor #ffd700 has contrast 1.40:1 with white text; WCAG AA needs 4.5:1: try #8b7500';
    const { client } = scripted(
      () =>
        new Response(
          JSON.stringify({
            status: false,
            message,
            isSuccess: false,
            error: { code: 'INVALID_BODY', requestId: 'r1' },
          }),
          { status: 400, headers: { 'content-type': 'application/json' } },
        ),
    );
    const err = await client.settings.update({ brandColor: '#ffd700' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostpayError);
    expect((err as HostpayError).message).toContain('try #8b7500');
  });
});
