import { afterAll, beforeAll, expect, it } from 'vitest';
import { flat, pdfText } from '../documents/pdf-text.js';
import { describeStores } from '../helpers.js';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { newLink, openAndPay } from '../payment-links/helpers.js';
import { simulate } from './helpers.js';

/**
 * spec/commerce.md, "Receipts": a receipt lists the line items of the link or invoice its
 * checkout came from (the `receiptLines` contributions). Each row's figures are checked in order
 * on the page and in the PDF (read back with pdftotext): a link's items, the amount a payer typed,
 * an invoice's lines with their tax and totals and its number, and a part payment of an invoice.
 */
describeStores('receipt items', (dialect) => {
  let fx: HttpFixture;
  const get = (url: string) => fx.app.inject({ method: 'GET', url });
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    checkoutCall(fx, fx.demo, method, url, body ?? (method === 'POST' ? {} : undefined), {
      ...(method === 'POST' ? { 'idempotency-key': `k-${Math.random().toString(36).slice(2)}` } : {}),
    });
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    await configureChains(fx.services);
  }, 60_000);
  afterAll(() => fx.close());

  /** The receipt page's text (tags dropped) and the PDF's, each with runs of white space made one space. */
  async function receiptTexts(checkoutId: string): Promise<{ html: string; pdf: string }> {
    const page = await get(`/pay/${checkoutId}/receipt`);
    expect(page.statusCode, page.body).toBe(200);
    // An isolated figure (<bdi>) is inline: its tags leave no space beside the text around it.
    const html = flat(
      page.body
        .replace(/<\/?bdi[^>]*>/g, '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/&amp;/g, '&'),
    );
    const pdf = await get(`/pay/${checkoutId}/receipt.pdf`);
    expect(pdf.statusCode).toBe(200);
    return { html, pdf: flat(pdfText(pdf.rawPayload)) };
  }

  /**
   * Every row (its figures in order) on the page and in the PDF; none of `absent`. A row is
   * written as the page shows it: `3 × 12.5 USDT` under the item; the PDF has Qty and Unit price
   * columns instead (`3 12.5 USDT`). `taxed`: the header has a Tax column.
   */
  async function expectRows(checkoutId: string, taxed: boolean, rows: string[], absent: string[] = []) {
    const texts = await receiptTexts(checkoutId);
    const header = {
      html: taxed ? 'Item Tax Amount' : 'Item Amount',
      pdf: taxed ? 'Item Qty Unit price Tax Amount' : 'Item Qty Unit price Amount',
    };
    for (const [where, text] of Object.entries(texts) as ['html' | 'pdf', string][]) {
      expect(text, `${where}: header`).toContain(header[where]);
      for (const row of rows) {
        const expected = where === 'pdf' ? row.replace(' × ', ' ') : row;
        expect(text, `${where}: ${expected}`).toContain(expected);
      }
      for (const word of absent) expect(text, `${where}: ${word}`).not.toContain(word);
    }
  }

  const checkoutIdOf = (location: string | undefined) => {
    expect(location).toMatch(/^\/pay\/chk_/);
    return location!.replace('/pay/', '');
  };

  it("a link's line items, each with its quantity, unit price and amount, then the total", async () => {
    const link = await newLink(fx, {
      name: 'Stationery',
      lineItems: [
        { name: 'Notebook A5', quantity: 3, unitAmount: '12.5' },
        { name: 'Fountain pen', quantity: 1, unitAmount: '4.99' },
      ],
    });
    const id = checkoutIdOf((await openAndPay(fx, link.slug)).headers.location as string);
    await simulate(fx, id, { asset: 'USDT', chain: 'TRON', amount: '42.49' });
    await expectRows(
      id,
      false,
      ['Notebook A5 3 × 12.5 USDT 37.5 USDT', 'Fountain pen 1 × 4.99 USDT 4.99 USDT', 'Total 42.49 USDT'],
      ['Tax', 'Payment for', 'Stationery 1'],
    );
  });

  it('the amount a payer typed, as one line named after the link', async () => {
    const link = await newLink(fx, { name: 'Tip jar', minAmount: '1', maxAmount: '50' });
    const id = checkoutIdOf((await openAndPay(fx, link.slug, { amount: '7.25' })).headers.location as string);
    await simulate(fx, id, { asset: 'USDT', chain: 'TRON', amount: '7.25' });
    await expectRows(id, false, ['Tip jar 1 × 7.25 USDT 7.25 USDT', 'Total 7.25 USDT'], ['Tax']);
  });

  /** A finalized invoice of the demo merchant: its number and public Pay URL. */
  async function invoice(lineItems: unknown[]): Promise<{ id: string; number: string; url: string }> {
    const draft = resultOf<{ id: string }>(
      await call('POST', '/api/v1/cp/invoices', { currency: 'USDT', customer: { name: 'Ada' }, lineItems }),
    );
    const open = await call('POST', `/api/v1/cp/invoices/${draft.id}/finalize`);
    expect(open.statusCode, open.body).toBe(200);
    return resultOf(open);
  }

  /** The invoice's public Pay, as a browser on its page posts it: the checkout it sends the payer to. */
  async function payInvoice(url: string): Promise<string> {
    const path = new URL(url).pathname;
    const page = await get(path);
    const nonce = /name="nonce" value="([^"]+)"/.exec(page.body)?.[1];
    expect(nonce, page.body).toBeDefined();
    const res = await fx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      payload: `nonce=${nonce}`,
    });
    expect(res.statusCode, res.body).toBe(303);
    return checkoutIdOf(res.headers.location as string);
  }

  it("an invoice's lines with their tax, its subtotal, tax and total, and which invoice it pays", async () => {
    const inv = await invoice([
      { description: 'Consulting', quantity: '3', unitAmount: '19.99', taxPercent: '19' },
      { description: 'Stamp', quantity: 1, unitAmount: '0.05', taxPercent: '10' },
      { description: 'Travel', quantity: '1.5', unitAmount: '12.5' },
    ]);
    const id = await payInvoice(inv.url);
    await simulate(fx, id, { asset: 'USDT', chain: 'TRON', amount: '90.1693' });
    await expectRows(
      id,
      true,
      [
        'Payment for',
        `Invoice ${inv.number}`,
        // USDT has 6 decimals: each line's tax is rounded to them.
        'Consulting 3 × 19.99 USDT 11.3943 USDT (19%) 59.97 USDT',
        'Stamp 1 × 0.05 USDT 0.005 USDT (10%) 0.05 USDT',
        // 1.5 × 12.5, untaxed: an empty tax cell.
        'Travel 1.5 × 12.5 USDT 18.75 USDT',
        'Subtotal 78.77 USDT',
        'Tax 11.3993 USDT',
        'Total 90.1693 USDT',
      ],
      ['part payment', 'Invoice total', 'This payment'],
    );
  });

  it('a part payment of an invoice says so: the invoice total, then what this checkout paid', async () => {
    const inv = await invoice([{ description: 'Hosting', quantity: 1, unitAmount: '100', taxPercent: '0' }]);
    // 40 of 100 arrive; the checkout expires underpaid and an operator settles it from review.
    const first = await payInvoice(inv.url);
    await simulate(fx, first, { asset: 'USDT', chain: 'TRON', amount: '40' });
    fx.clock.offsetMs += 3600_000;
    await fx.services.checkouts.expireDue();
    await fx.services.checkouts.settleReview(first, { asset: 'USDT', chain: 'TRON' }, { operator: 'test' });
    // The rest, 60, through a second checkout for what is due.
    const second = await payInvoice(inv.url);
    expect(second).not.toBe(first);
    await simulate(fx, second, { asset: 'USDT', chain: 'TRON', amount: '60' });
    await expectRows(second, true, [
      'Payment for',
      `Invoice ${inv.number} (part payment of its total of 100 USDT)`,
      'Hosting 1 × 100 USDT 0 USDT (0%) 100 USDT',
      'Subtotal 100 USDT',
      'Tax 0 USDT',
      'Invoice total 100 USDT',
      'This payment 60 USDT',
    ]);
  });
});
