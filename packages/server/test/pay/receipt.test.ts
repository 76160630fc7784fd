import { afterAll, beforeAll, expect, it } from 'vitest';
import { PAGE_CSP } from '../../src/http/page-headers.js';
import { formatDateTime } from '../../src/i18n/format.js';
import { speechOf } from '../../src/i18n/messages.js';
import { flat, pdfText } from '../documents/pdf-text.js';
import { describeStores } from '../helpers.js';
import { configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { createCheckout, simulate } from './helpers.js';

/**
 * spec/commerce.md, "Receipts": `/pay/{id}/receipt` and `/pay/{id}/receipt.pdf` for a settled
 * checkout (404 before), every figure in both (the PDF read back with pdftotext), the merchant's
 * name in Cyrillic and Greek as text, explorer links, and never the fee, metadata, order id or
 * payer's email.
 */
describeStores('receipts', (dialect) => {
  let fx: HttpFixture;
  const get = (url: string) => fx.app.inject({ method: 'GET', url });
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    await configureChains(fx.services);
    await fx.services.store.db
      .updateTable('merchants')
      .set({
        display_name: 'Книжная лавка Σοφία',
        legal_name: 'ООО «Лавка»',
        address: 'ул. Пушкина 10\nМосква 101000',
        tax_id: 'RU7701234567',
        support_email: 'help@lavka.example',
      })
      .where('id', '=', fx.demo.merchantId)
      .execute();
    await fx.services.admin.updateChain(
      'TRON',
      { explorerTxUrl: 'https://tronscan.org/#/transaction/{tx}' },
      { operator: 'test' },
    );
  });
  afterAll(() => fx.close());

  it('before settlement both are 404 pages; unknown ids too; after it, the checkout and /status name the receipt', async () => {
    const c = await createCheckout(fx, {
      amount: 100,
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      description: 'Βιβλίο και παράδοση',
      orderId: 'order-secret-77',
      metadata: { secret: 'meta-secret-88' },
      customerEmail: 'payer-secret@example.com',
    });
    for (const url of [
      `/pay/${c.id}/receipt`,
      `/pay/${c.id}/receipt.pdf`,
      '/pay/chk_nope/receipt',
      '/pay/chk_nope/receipt.pdf',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    }
    let status = JSON.parse((await get(`/pay/${c.id}/status`)).body).result;
    expect([status.receiptNumber, status.receiptUrl]).toEqual([null, null]);
    expect((await get(`/pay/${c.id}`)).body).not.toContain('/receipt');

    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: '100' });
    status = JSON.parse((await get(`/pay/${c.id}/status`)).body).result;
    expect(status.status).toBe('settled');
    expect(status.receiptNumber).toMatch(/^RCPT-\d{6}$/);
    expect(status.receiptUrl).toMatch(new RegExp(`/pay/${c.id}/receipt$`));
    expect((await get(`/pay/${c.id}`)).body).toContain(
      `<a data-receipt-link href="/pay/${c.id}/receipt">View your receipt ${status.receiptNumber}</a>`,
    );

    const tx = status.payments[0].txHash as string;
    const explorer = `https://tronscan.org/#/transaction/${encodeURIComponent(tx)}`;
    const settledAt = (
      await fx.services.store.db
        .selectFrom('checkout_timeline')
        .select('at')
        .where('checkout_id', '=', c.id)
        .where('status', '=', 'settled')
        .executeTakeFirstOrThrow()
    ).at;
    const date = `${formatDateTime('en', settledAt)} UTC`;
    const figures = [
      'Книжная лавка Σοφία',
      'ООО «Лавка»',
      'ул. Пушкина 10',
      'Москва 101000',
      'Tax ID: RU7701234567',
      'help@lavka.example',
      status.receiptNumber,
      date,
      'Βιβλίο και παράδοση',
      '100 USDT',
      '1 USDT = 1 USDT',
      'TRON',
      tx,
    ];

    const page = await get(`/pay/${c.id}/receipt`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    const html = page.body;
    for (const figure of figures) expect(html, figure).toContain(figure.replace('«', '«').replace('»', '»'));
    expect(html).toContain(`href="${explorer}"`);
    expect(html).toContain('Sandbox');
    expect(html).toContain(`href="/pay/${c.id}/receipt.pdf?lang=en"`);

    const pdf = await get(`/pay/${c.id}/receipt.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`inline; filename="receipt-${status.receiptNumber}.pdf"`);
    const text = flat(pdfText(pdf.rawPayload));
    for (const figure of figures) expect(text, figure).toContain(figure);
    expect(text).toContain('Sandbox');
    expect(pdf.rawPayload.toString('latin1')).toContain(`/URI (${explorer})`);

    for (const body of [html, text, JSON.stringify(status)]) {
      for (const secret of ['order-secret-77', 'meta-secret-88', 'payer-secret@example.com'])
        expect(body, secret).not.toContain(secret);
      // The merchant's fee is not the payer's business: no word "fee" (as a word: a random
      // transaction hash such as sim_…28fee6… may hold the letters).
      expect(body).not.toMatch(/\bfees?\b/i);
    }
  });

  it('the receipt is reachable by the checkout id only: a near id is 404', async () => {
    const c = await createCheckout(fx, {
      amount: 5,
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: '5' });
    expect((await get(`/pay/${c.id}/receipt`)).statusCode).toBe(200);
    const near = `${c.id.slice(0, -1)}${c.id.endsWith('0') ? '1' : '0'}`;
    expect((await get(`/pay/${near}/receipt`)).statusCode).toBe(404);
    expect((await get(`/pay/${near}/receipt.pdf`)).statusCode).toBe(404);
  });

  it("speaks the payer's language: ?lang= (remembered), Accept-Language, the PDF link and the PDF alike", async () => {
    const c = await createCheckout(fx, {
      amount: 12,
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: '12' });
    const ja = speechOf('ja');
    const page = await get(`/pay/${c.id}/receipt?lang=ja`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="ja" dir="ltr">');
    for (const key of ['receipt.title', 'receipt.number', 'receipt.datePaid', 'receipt.paidWith'] as const)
      expect(page.body, key).toContain(ja.t(key));
    expect(page.body).toContain(`href="/pay/${c.id}/receipt.pdf?lang=ja"`);
    expect(page.body).not.toContain('Receipt number');
    expect(String(page.headers['set-cookie'])).toContain('hostpay_lang=ja');

    const ar = await fx.app.inject({
      method: 'GET',
      url: `/pay/${c.id}/receipt`,
      headers: { 'accept-language': 'ar-EG,en;q=0.5' },
    });
    expect(ar.body).toContain('<html lang="ar" dir="rtl">');
    expect(ar.body).toContain(speechOf('ar').t('receipt.number'));
    // Codes and figures keep their left-to-right order on the right-to-left page.
    expect(ar.body).toMatch(/<bdi dir="ltr">RCPT-\d{6}<\/bdi>/);

    const pdf = await fx.app.inject({
      method: 'GET',
      url: `/pay/${c.id}/receipt.pdf`,
      headers: { cookie: 'hostpay_lang=ru' },
    });
    expect(pdf.headers['content-language']).toBe('ru');
    const text = flat(pdfText(pdf.rawPayload));
    for (const key of ['receipt.title', 'receipt.number', 'receipt.datePaid'] as const)
      expect(text, key).toContain(speechOf('ru').t(key));

    const missing = await get('/pay/chk_nope/receipt?lang=de');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain(speechOf('de').t('receipt.notFoundTitle'));
  });
});
