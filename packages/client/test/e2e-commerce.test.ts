import { SCOPES } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostpayClient, type HostpayError } from '../src/index.js';
import { startRealServer, type RealServer } from './helpers/real-server.js';

/** client.paymentLinks and client.invoices against the real server (sandbox, embedded SQLite, real socket). */
const ctx = { operator: 'test' };
let server: RealServer;
let client: HostpayClient;
let numbers: HostpayClient<'number'>;
let readOnly: HostpayClient;

beforeAll(async () => {
  server = await startRealServer({ checkouts: true });
  const { admin } = server.services;
  const merchantId = (await admin.createMerchant('Commerce Shop', ctx)).id;
  // Created without a scope list: links and invoices, read and write, are among its scopes.
  const plain = await admin.createApiKey(merchantId, {}, ctx);
  expect(plain.scopes).toEqual(
    expect.arrayContaining(['links:read', 'links:write', 'invoices:read', 'invoices:write']),
  );
  const reader = await admin.createApiKey(merchantId, { scopes: ['links:read', 'invoices:read'] }, ctx);
  const options = { baseUrl: server.url, retryDelay: () => 0 };
  client = new HostpayClient({ ...options, apiKey: plain.apiKey, apiSecret: plain.apiSecret });
  numbers = new HostpayClient({ ...options, apiKey: plain.apiKey, apiSecret: plain.apiSecret, amounts: 'number' });
  readOnly = new HostpayClient({ ...options, apiKey: reader.apiKey, apiSecret: reader.apiSecret });
  expect(SCOPES).toContain('links:write');
});
afterAll(() => server.close());

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a HostpayError');
    },
    (e: HostpayError) => e,
  );

describe('client.paymentLinks against the real server', () => {
  it('create (exact amounts, idempotent), get, list with paging, update, deactivate, activate', async () => {
    const params = {
      name: 'Coffee',
      currency: 'EUR',
      lineItems: [
        { name: 'Espresso', quantity: 2, unitAmount: '2.55' },
        { name: 'Cake', quantity: 1, unitAmount: 3.1 },
      ],
      collectEmail: 'optional' as const,
      metadata: { shelf: 'a1' },
    };
    const link = await client.paymentLinks.create(params, { idempotencyKey: 'e2e-link-1' });
    expect(link).toMatchObject({
      name: 'Coffee',
      currency: 'EUR',
      amount: '8.2',
      lineItems: [
        { name: 'Espresso', quantity: '2', unitAmount: '2.55' },
        { name: 'Cake', quantity: '1', unitAmount: '3.1' },
      ],
      collectEmail: 'optional',
      active: true,
      status: 'active',
      uses: 0,
      maxUses: null,
      metadata: { shelf: 'a1' },
    });
    expect(link.id).toMatch(/^plink_/);
    expect(link.url).toBe(`${server.url}/l/${link.slug}`);
    // A retry with the same key (an answer lost on the way) gets the same link, not a second one.
    expect((await client.paymentLinks.create(params, { idempotencyKey: 'e2e-link-1' })).id).toBe(link.id);
    expect((await numbers.paymentLinks.get(link.id)).amount).toBe(8.2);

    const tips = await client.paymentLinks.create({
      name: 'Tips',
      currency: 'USDT',
      minAmount: '1',
      maxAmount: 500n,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    expect(tips).toMatchObject({ amount: null, minAmount: '1', maxAmount: '500', lineItems: null });

    const first = await client.paymentLinks.list({ limit: 1 });
    expect(first.items.map((l) => l.id)).toEqual([tips.id]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.paymentLinks.list({ limit: 1, cursor: first.nextCursor ?? undefined });
    expect(second.items.map((l) => l.id)).toEqual([link.id]);
    const all = [];
    for await (const l of client.paymentLinks.listAll({ limit: 1 })) all.push(l.id);
    expect(all).toEqual([tips.id, link.id]);

    const changed = await client.paymentLinks.update(link.id, { name: 'Coffee bar', maxUses: 3, description: 'Hot' });
    expect(changed).toMatchObject({ name: 'Coffee bar', maxUses: 3, description: 'Hot', amount: '8.2' });
    const cleared = await client.paymentLinks.update(link.id, { description: null, maxUses: null });
    expect(cleared).toMatchObject({ description: null, maxUses: null });

    const off = await client.paymentLinks.deactivate(link.id);
    expect([off.active, off.status]).toEqual([false, 'inactive']);
    // The public page says so: 410.
    expect((await fetch(link.url)).status).toBe(410);
    expect((await client.paymentLinks.list({ active: false })).items.map((l) => l.id)).toEqual([link.id]);
    expect((await client.paymentLinks.list({ active: true })).items.map((l) => l.id)).toEqual([tips.id]);
    expect((await client.paymentLinks.activate(link.id)).status).toBe('active');
    expect((await fetch(link.url)).status).toBe(200);
    expect(await client.paymentLinks.listCheckouts(link.id)).toEqual({ items: [], nextCursor: null });
  });

  it('errors: a price that does not match its lines, another merchant, a read-only key, an empty id', async () => {
    const mismatch = await fail(
      client.paymentLinks.create({
        name: 'Bad',
        currency: 'EUR',
        amount: '9',
        lineItems: [{ name: 'One', quantity: 1, unitAmount: '8' }],
      }),
    );
    expect([mismatch.status, mismatch.code]).toEqual([400, 'INVALID_AMOUNT']);
    const missing = await fail(client.paymentLinks.get('plink_doesnotexist'));
    expect([missing.status, missing.code]).toEqual([404, 'NOT_FOUND']);
    const denied = await fail(readOnly.paymentLinks.create({ name: 'X', currency: 'EUR', amount: '1' }));
    expect([denied.status, denied.code]).toEqual([403, 'SCOPE_MISSING']);
    expect((await readOnly.paymentLinks.list()).items.length).toBe(2);
    const empty = await fail(client.paymentLinks.deactivate(''));
    expect(empty.code).toBe('INVALID_ARGUMENT');
  });
});

describe('client.invoices against the real server', () => {
  it('draft → update → finalize → send → pdf → void, exact amounts throughout', async () => {
    const draft = await client.invoices.create(
      {
        currency: 'EUR',
        customer: { name: 'Ada', email: 'ada@example.com' },
        lineItems: [{ description: 'Consulting', quantity: '1.5', unitAmount: '19.99', taxPercent: '20' }],
        memo: 'Thanks',
      },
      { idempotencyKey: 'e2e-invoice-1' },
    );
    expect(draft).toMatchObject({
      status: 'draft',
      number: null,
      url: null,
      customer: { name: 'Ada', email: 'ada@example.com' },
      lineItems: [
        { description: 'Consulting', quantity: '1.5', unitAmount: '19.99', taxPercent: '20', amount: '29.99' },
      ],
      subtotal: '29.99',
      tax: '6',
      total: '35.99',
      amountPaid: '0',
      amountDue: '35.99', // a draft's is its total, as once finalized
      memo: 'Thanks',
    });
    expect(draft.id).toMatch(/^inv_/);
    const pdfOfDraft = await fail(client.invoices.pdf(draft.id));
    expect([pdfOfDraft.status, pdfOfDraft.code]).toEqual([409, 'INVOICE_STATE_CONFLICT']);

    const edited = await client.invoices.update(draft.id, {
      lineItems: [
        { description: 'Consulting', quantity: 2.5, unitAmount: '0.01' },
        { description: 'Travel', quantity: '1', unitAmount: '100.1', taxPercent: '7.5' },
      ],
      memo: null,
      dueAt: new Date(Date.now() + 7 * 86_400_000),
    });
    expect(edited).toMatchObject({ subtotal: '100.13', tax: '7.51', total: '107.64', memo: null });
    expect(edited.dueAt).toEqual(expect.any(String));

    const open = await client.invoices.finalize(draft.id);
    expect(open).toMatchObject({ status: 'open', number: 'INV-000001', amountDue: '107.64' });
    expect(open.url).toMatch(new RegExp(`^${server.url}/i/.+`));
    const late = await fail(client.invoices.update(draft.id, { memo: 'too late' }));
    expect([late.status, late.code]).toEqual([409, 'INVOICE_STATE_CONFLICT']);

    const sent = await client.invoices.send(draft.id);
    expect(sent.sentAt).toEqual(expect.any(String));
    const pdf = await client.invoices.pdf(draft.id);
    expect(pdf).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(1000);

    const voided = await client.invoices.void(draft.id);
    expect(voided).toMatchObject({ status: 'void', number: 'INV-000001', amountDue: '0' });
    const again = await fail(client.invoices.send(draft.id));
    expect([again.status, again.code]).toEqual([409, 'INVOICE_STATE_CONFLICT']);
    expect((await client.invoices.get(draft.id)).status).toBe('void');
  });

  it('list filters and pages; a draft is deleted; send without an email is CUSTOMER_EMAIL_MISSING', async () => {
    const line = [{ description: 'Thing', quantity: 1, unitAmount: '5' }];
    const a = await client.invoices.create({
      currency: 'EUR',
      lineItems: line,
      customer: { email: 'bob@example.com' },
    });
    const b = await client.invoices.create({ currency: 'EUR', lineItems: line });
    const drafts = await client.invoices.list({ status: 'draft', limit: 1 });
    expect(drafts.items.map((i) => i.id)).toEqual([b.id]);
    const next = await client.invoices.list({ status: 'draft', limit: 1, cursor: drafts.nextCursor ?? undefined });
    expect(next.items.map((i) => i.id)).toEqual([a.id]);
    expect((await client.invoices.list({ customerEmail: 'bob@example.com' })).items.map((i) => i.id)).toEqual([a.id]);
    const ids = [];
    for await (const i of readOnly.invoices.listAll({ limit: 2 })) ids.push(i.id);
    expect(ids.slice(0, 2)).toEqual([b.id, a.id]);
    expect(ids).toHaveLength(3);

    const removed = await client.invoices.delete(a.id);
    expect(removed.id).toBe(a.id);
    expect((await fail(client.invoices.get(a.id))).code).toBe('NOT_FOUND');

    await client.invoices.finalize(b.id);
    const noEmail = await fail(client.invoices.send(b.id));
    expect([noEmail.status, noEmail.code]).toEqual([422, 'CUSTOMER_EMAIL_MISSING']);
    const uncollectible = await client.invoices.markUncollectible(b.id);
    expect(uncollectible).toMatchObject({ status: 'uncollectible', number: 'INV-000002' });
    const denied = await fail(readOnly.invoices.create({ currency: 'EUR' }));
    expect([denied.status, denied.code]).toEqual([403, 'SCOPE_MISSING']);
  });
});
