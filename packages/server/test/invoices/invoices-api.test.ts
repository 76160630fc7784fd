import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { expectError } from '../http-helpers/requests.js';
import { describeStores } from '../helpers.js';
import { flat, pdfText } from '../documents/pdf-text.js';
import { invoiceService } from '../../src/features/invoices/service.js';

// spec/commerce.md, "Invoices": the merchant routes, every state move, the public page's Pay.
interface Inv {
  id: string;
  number: string | null;
  status: string;
  subtotal: string;
  tax: string;
  total: string;
  amountPaid: string;
  amountDue: string;
  url: string | null;
  checkoutIds: string[];
  lineItems: { amount: string; tax: string }[];
  sentAt: string | null;
}
const P = '/api/v1/cp/invoices';

describeStores('invoices', (dialect) => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    await configureChains(fx.services);
  }, 60_000);
  afterAll(() => fx.close());
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    checkoutCall(fx, fx.demo, method, url, body ?? (method === 'POST' ? {} : undefined), {
      ...(method === 'POST' ? { 'idempotency-key': `k-${Math.random().toString(36).slice(2)}` } : {}),
    });
  const draft = async (body: Record<string, unknown>) => {
    const res = await call('POST', P, body);
    expect(res.statusCode, res.body).toBe(201);
    return resultOf<Inv>(res);
  };

  it('prices lines half-up per line to the currency decimals, then sums', async () => {
    const inv = await draft({
      currency: 'EUR',
      customer: { name: 'Ada', email: 'ada@example.com' },
      lineItems: [
        { description: 'Consulting', quantity: '3', unitAmount: '19.99', taxPercent: '19' },
        { description: 'Stamp', quantity: 1, unitAmount: '0.05', taxPercent: '10' },
        { description: 'Book', quantity: '2', unitAmount: '12.50' },
      ],
    });
    expect(inv.status).toBe('draft');
    expect(inv.number).toBeNull();
    expect(inv.url).toBeNull();
    expect(inv.lineItems.map((l) => [l.amount, l.tax])).toEqual([
      ['59.97', '11.39'],
      ['0.05', '0.01'],
      ['25', '0'],
    ]);
    expect([inv.subtotal, inv.tax, inv.total, inv.amountPaid, inv.amountDue]).toEqual([
      '85.02',
      '11.4',
      '96.42',
      '0',
      '96.42',
    ]);
  });

  it.each([
    ['an unknown currency', { currency: 'XXQ', lineItems: [] }, 422, 'UNSUPPORTED_CURRENCY'],
    ['a bad email', { currency: 'EUR', customer: { email: 'A <a@b.example>' } }, 400, 'INVALID_EMAIL'],
    [
      'a negative price',
      { currency: 'EUR', lineItems: [{ description: 'x', quantity: 1, unitAmount: '-1' }] },
      400,
      'INVALID_AMOUNT',
    ],
    [
      'too many decimals',
      { currency: 'EUR', lineItems: [{ description: 'x', quantity: 1, unitAmount: '1.001' }] },
      400,
      'INVALID_AMOUNT',
    ],
    [
      'tax over 100',
      { currency: 'EUR', lineItems: [{ description: 'x', quantity: 1, unitAmount: '1', taxPercent: 101 }] },
      400,
      'INVALID_AMOUNT',
    ],
  ])('a draft with %s is refused', async (_, body, status, code) => {
    expectError(await call('POST', P, body), status, code);
  });

  it('walks the state table; every other move is 409 INVOICE_STATE_CONFLICT', async () => {
    const empty = await draft({ currency: 'EUR' });
    expectError(await call('POST', `${P}/${empty.id}/finalize`), 409, 'INVOICE_STATE_CONFLICT');
    const past = await draft({
      currency: 'EUR',
      dueAt: '2020-01-01T00:00:00Z',
      lineItems: [{ description: 'x', quantity: 1, unitAmount: 5 }],
    });
    expectError(await call('POST', `${P}/${past.id}/finalize`), 409, 'INVOICE_STATE_CONFLICT');
    expectError(await call('POST', `${P}/${empty.id}/send`), 409, 'INVOICE_STATE_CONFLICT');
    expectError(await call('GET', `${P}/${empty.id}/pdf`), 409, 'INVOICE_STATE_CONFLICT');
    for (const move of ['void', 'mark-uncollectible'])
      expectError(await call('POST', `${P}/${empty.id}/${move}`), 409, 'INVOICE_STATE_CONFLICT');
    const patched = resultOf<Inv>(
      await call('PATCH', `${P}/${empty.id}`, {
        lineItems: [{ description: 'Work', quantity: '1.5', unitAmount: '10' }],
      }),
    );
    expect(patched.total).toBe('15');
    const open = resultOf<Inv>(await call('POST', `${P}/${empty.id}/finalize`));
    expect(open.status).toBe('open');
    expect(open.number).toMatch(/^INV-\d{6}$/);
    expect(open.url).toMatch(/\/i\/[A-Za-z0-9_-]{43}$/);
    expect(resultOf<Inv>(await call('GET', `${P}/${open.id}`)).url).toBe(open.url);
    expectError(await call('PATCH', `${P}/${open.id}`, { memo: 'x' }), 409, 'INVOICE_STATE_CONFLICT');
    expectError(await call('DELETE', `${P}/${open.id}`), 409, 'INVOICE_STATE_CONFLICT');
    expectError(await call('POST', `${P}/${open.id}/finalize`), 409, 'INVOICE_STATE_CONFLICT');
    expectError(await call('POST', `${P}/${open.id}/send`), 422, 'CUSTOMER_EMAIL_MISSING');
    const un = resultOf<Inv>(await call('POST', `${P}/${open.id}/mark-uncollectible`));
    expect(un.status).toBe('uncollectible');
    expectError(await call('POST', `${P}/${open.id}/void`), 409, 'INVOICE_STATE_CONFLICT');
    // A draft is deleted; then it does not exist.
    expect((await call('DELETE', `${P}/${past.id}`)).statusCode).toBe(200);
    expectError(await call('GET', `${P}/${past.id}`), 404, 'NOT_FOUND');
    // void, then the page says so and Pay makes nothing
    const v = await draft({
      currency: 'EUR',
      customer: { email: 'b@example.com' },
      lineItems: [{ description: 'x', quantity: 1, unitAmount: 5 }],
    });
    const vOpen = resultOf<Inv>(await call('POST', `${P}/${v.id}/finalize`));
    const sent = resultOf<Inv>(await call('POST', `${P}/${v.id}/send`));
    expect(sent.sentAt).not.toBeNull();
    expect(resultOf<Inv>(await call('POST', `${P}/${v.id}/void`)).status).toBe('void');
    expectError(await call('POST', `${P}/${v.id}/send`), 409, 'INVOICE_STATE_CONFLICT');
    const page = await fx.app.inject({ method: 'GET', url: new URL(vOpen.url!).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('This invoice is void');
    expect(page.body).not.toContain('<form');
    const list = await call('GET', `${P}?status=void`);
    expect(resultOf<Inv[]>(list).map((i) => i.id)).toContain(v.id);
  });

  it('the PDF holds every figure (pdftotext)', async () => {
    const inv = await draft({
      currency: 'EUR',
      customer: { name: 'Иван Петров', email: 'ivan@example.com' },
      lineItems: [
        { description: 'Consulting', quantity: '3', unitAmount: '19.99', taxPercent: '19' },
        { description: 'Stamp', quantity: 1, unitAmount: '0.05', taxPercent: '10' },
      ],
    });
    const open = resultOf<Inv>(await call('POST', `${P}/${inv.id}/finalize`));
    const res = await call('GET', `${P}/${inv.id}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = flat(pdfText(res.rawPayload));
    for (const figure of [
      open.number!,
      'Иван Петров',
      'Consulting',
      '19.99',
      '59.97',
      // Amounts in the invoice's currency as the language writes them, every digit kept.
      // The tax cell may wrap: its rate and its amount are read separately.
      '19%',
      '(€11.39)',
      '0.05',
      '10% (€0.01)',
      '€60.02',
      '€11.40',
      '€71.42',
      '€0.00',
    ])
      expect(text).toContain(figure);
    const pub = await fx.app.inject({ method: 'GET', url: `${new URL(open.url!).pathname}/pdf` });
    expect(pub.statusCode).toBe(200);
    expect(flat(pdfText(pub.rawPayload))).toContain('€71.42');
    // The public PDF in the payer's language: ?lang=, else Accept-Language.
    const path = new URL(open.url!).pathname;
    const de = await fx.app.inject({ method: 'GET', url: `${path}/pdf?lang=de` });
    expect(de.headers['content-language']).toBe('de');
    const deText = flat(pdfText(de.rawPayload));
    for (const w of ['Rechnung', 'Rechnungsnummer', 'Zwischensumme', '71,42 €', 'Иван Петров'])
      expect(deText, w).toContain(w);
    const ja = await fx.app.inject({ method: 'GET', url: `${path}/pdf`, headers: { 'accept-language': 'ja-JP' } });
    for (const w of ['請求書', '請求書番号', '小計', '合計']) expect(flat(pdfText(ja.rawPayload)), w).toContain(w);
    // The page: its language, the picker, and its PDF link in the same language.
    const page = await fx.app.inject({ method: 'GET', url: `${path}?lang=ar` });
    expect(page.body).toContain('<html lang="ar" dir="rtl">');
    expect(page.body).toContain(`href="${path}/pdf?lang=ar"`);
    expect(page.body).toContain('البنود');
    expect(page.body).toContain(`<bdi dir="ltr">${open.number}</bdi>`);
    const fr = await fx.app.inject({ method: 'GET', url: path, headers: { cookie: 'hostpay_lang=fr' } });
    expect(fr.body).toContain('<html lang="fr" dir="ltr">');
    for (const w of ['Facture de', 'Payer', 'Sous-total', 'Montant dû', '71,42']) expect(fr.body, w).toContain(w);
    const missing = await fx.app.inject({ method: 'GET', url: `/i/${'A'.repeat(43)}?lang=es` });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Factura no encontrada');
    // A Japanese PDF reads its font (1.4-1.6 MB) on first use: slow on a busy machine.
  }, 120_000);

  /** The public page's Pay: its nonce from the page, posted as a browser on that page would. */
  async function pay(url: string): Promise<{ status: number; location: string | undefined }> {
    const path = new URL(url).pathname;
    const page = await fx.app.inject({ method: 'GET', url: path });
    const nonce = /name="nonce" value="([^"]+)"/.exec(page.body)?.[1];
    expect(nonce, page.body).toBeDefined();
    const res = await fx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      payload: `nonce=${nonce}`,
    });
    if (res.statusCode >= 400) expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    return { status: res.statusCode, location: res.headers.location as string | undefined };
  }

  it.each([
    ['underpaid', true],
    ['expired', false],
  ] as const)(
    'void after a checkout read as open became %s before it was locked (a race on PostgreSQL): refused %s',
    async (moved, refused) => {
      const inv = await draft({
        currency: 'USDT',
        lineItems: [{ description: 'Race', quantity: 1, unitAmount: '30' }],
      });
      const open = resultOf<Inv>(await call('POST', `${P}/${inv.id}/finalize`));
      const paid = await pay(open.url!);
      expect(paid.status).toBe(303);
      const checkoutId = paid.location!.replace('/pay/', '');
      // The payment lands between void's check and its cancel: what another transaction commits
      // while void waits for the checkout's lock, played here inside void's own transaction.
      const racing = invoiceService({
        store: fx.services.store,
        box: fx.services.box,
        outbox: fx.services.outbox,
        publicBaseUrl: () => 'http://127.0.0.1',
        now: Date.now,
        sandbox: true,
        checkouts: {
          ...fx.services.checkouts,
          cancelWithin: async (trx, id) => {
            await trx.updateTable('checkouts').set({ status: moved }).where('id', '=', id).execute();
            return fx.services.checkouts.cancelWithin(trx, id);
          },
        },
      });
      if (!refused) {
        // One that only expired meanwhile took no money: the void goes through.
        expect((await racing.void(fx.demo.merchantId, inv.id)).status).toBe('void');
        return;
      }
      await expect(racing.void(fx.demo.merchantId, inv.id)).rejects.toMatchObject({
        code: 'INVOICE_STATE_CONFLICT',
        message: expect.stringContaining(checkoutId),
      });
      // Nothing of the refused void was written: the invoice is open, its checkout untouched.
      expect(resultOf<Inv>(await call('GET', `${P}/${inv.id}`)).status).toBe('open');
      const c = resultOf<{ status: string }>(await call('GET', `/api/v1/cp/psp/hosted-pay/${checkoutId}`));
      expect(c.status).toBe('open');
    },
  );

  it('used Pay nonces are kept a day, then pruned (at most hourly) by a later Pay', async () => {
    const inv = await draft({ currency: 'USDT', lineItems: [{ description: 'Prune', quantity: 1, unitAmount: '3' }] });
    const open = resultOf<Inv>(await call('POST', `${P}/${inv.id}/finalize`));
    const db = fx.services.store.db;
    const at = (msAgo: number) => new Date(fx.now() - msAgo).toISOString();
    await db
      .insertInto('invoice_pay_nonces')
      .values([
        { nonce: 'old-inv-nonce', invoice_id: inv.id, checkout_id: 'chk_gone', created_at: at(27 * 3_600_000) },
        { nonce: 'new-inv-nonce', invoice_id: inv.id, checkout_id: 'chk_gone', created_at: at(21 * 3_600_000) },
      ])
      .execute();
    fx.clock.offsetMs += 2 * 3_600_000;
    try {
      expect((await pay(open.url!)).status).toBe(303);
    } finally {
      fx.clock.offsetMs -= 2 * 3_600_000;
    }
    const left = await db
      .selectFrom('invoice_pay_nonces')
      .select('nonce')
      .where('nonce', 'in', ['old-inv-nonce', 'new-inv-nonce'])
      .execute();
    expect(left.map((r) => r.nonce)).toEqual(['new-inv-nonce']);
  });

  it('is paid in two parts: partially_paid then paid, amountPaid exact, events in order, open checkouts canceled', async () => {
    const inv = await draft({
      currency: 'USDT',
      lineItems: [{ description: 'Hosting', quantity: 1, unitAmount: '100' }],
    });
    const open = resultOf<Inv>(await call('POST', `${P}/${inv.id}/finalize`));
    const first = await pay(open.url!);
    expect(first.status).toBe(303);
    const a = first.location!.replace('/pay/', '');
    // A second Pay while the first checkout is live sends the payer back to it.
    expect((await pay(open.url!)).location).toBe(first.location);
    // 40 of 100 arrive; the checkout expires underpaid and an operator settles it from review.
    const sim = await call('POST', `/api/v1/cp/psp/hosted-pay/${a}/simulate-payment`, {
      asset: 'USDT',
      chain: 'TRON',
      amount: '40',
    });
    expect(sim.statusCode, sim.body).toBe(200);
    fx.clock.offsetMs += 3600_000;
    await fx.services.checkouts.expireDue();
    const expired = resultOf<{ status: string }>(await call('GET', `/api/v1/cp/psp/hosted-pay/${a}`));
    expect(expired.status).toBe('needs_review');
    await fx.services.checkouts.settleReview(a, { asset: 'USDT', chain: 'TRON' }, { operator: 'test' });
    const part = resultOf<Inv>(await call('GET', `${P}/${inv.id}`));
    expect([part.status, part.amountPaid, part.amountDue]).toEqual(['partially_paid', '40', '60']);
    // The rest through a second checkout for amountDue; a third, opened meanwhile, is canceled.
    const second = await pay(open.url!);
    const b = second.location!.replace('/pay/', '');
    expect(b).not.toBe(a);
    const bView = resultOf<{ amount: string; orderId: string; invoiceId: string }>(
      await call('GET', `/api/v1/cp/psp/hosted-pay/${b}`),
    );
    expect([bView.amount, bView.orderId, bView.invoiceId]).toEqual(['60', open.number, inv.id]);
    const c = await fx.services.checkouts.createFrom(
      fx.demo.merchantId,
      { amount: '60', currency: 'USDT' },
      { origin: { invoiceId: inv.id } },
    );
    const done = await call('POST', `/api/v1/cp/psp/hosted-pay/${b}/simulate-payment`, {
      asset: 'USDT',
      chain: 'TRON',
    });
    expect(resultOf<{ status: string }>(done).status).toBe('settled');
    const paid = resultOf<Inv>(await call('GET', `${P}/${inv.id}`));
    expect([paid.status, paid.amountPaid, paid.amountDue]).toEqual(['paid', '100', '0']);
    expect(paid.checkoutIds).toEqual([a, b, c.id]);
    expect(resultOf<{ status: string }>(await call('GET', `/api/v1/cp/psp/hosted-pay/${c.id}`)).status).toBe(
      'canceled',
    );
    const events = await fx.services.store.db
      .selectFrom('events')
      .select(['type'])
      .where('merchant_id', '=', fx.demo.merchantId)
      .where('type', 'like', 'invoice.%')
      .where('data', 'like', `%${inv.id}%`)
      .orderBy('sequence')
      .execute();
    expect(events.map((e) => e.type)).toEqual(['invoice.finalized', 'invoice.partially_paid', 'invoice.paid']);
    // Paid: the page has no Pay button; a POST makes nothing.
    const pagePath = new URL(open.url!).pathname;
    expect((await fx.app.inject({ method: 'GET', url: pagePath })).body).not.toContain('<form');
  });

  it('a Pay the merchant cannot take now answers a page, not the JSON envelope; the page names the display name', async () => {
    const inv = await draft({ currency: 'USDT', lineItems: [{ description: 'x', quantity: 1, unitAmount: 5 }] });
    const open = resultOf<Inv>(await call('POST', `${P}/${inv.id}/finalize`));
    const db = fx.services.store.db;
    await db
      .updateTable('merchants')
      .set({ display_name: 'Shop Shown' })
      .where('id', '=', fx.demo.merchantId)
      .execute();
    const wallets = await db.selectFrom('wallets').select('id').where('merchant_id', '=', fx.demo.merchantId).execute();
    const ctx = { operator: 'test' };
    for (const w of wallets) await fx.services.admin.setWalletActive(w.id, false, ctx);
    try {
      const shown = await fx.app.inject({ method: 'GET', url: new URL(open.url!).pathname });
      expect(shown.body).toContain('Shop Shown');
      const refused = await pay(open.url!);
      expect(refused.status).toBe(503);
      const again = await fx.app.inject({ method: 'GET', url: new URL(open.url!).pathname });
      expect(again.statusCode).toBe(200);
    } finally {
      for (const w of wallets) await fx.services.admin.setWalletActive(w.id, true, ctx);
      await db.updateTable('merchants').set({ display_name: null }).where('id', '=', fx.demo.merchantId).execute();
    }
  });

  it('refuses a cross-site Pay (403) and an unknown token (404)', async () => {
    const inv = await draft({ currency: 'EUR', lineItems: [{ description: 'x', quantity: 1, unitAmount: 5 }] });
    const open = resultOf<Inv>(await call('POST', `${P}/${inv.id}/finalize`));
    const path = new URL(open.url!).pathname;
    const res = await fx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      payload: 'nonce=x',
    });
    expect(res.statusCode).toBe(403);
    expect((await fx.app.inject({ method: 'GET', url: `/i/${'A'.repeat(43)}` })).statusCode).toBe(404);
  });
});
