import { SCOPES } from '@hostpay/protocol';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { findCheckout, loadCheckouts } from '../../src/features/checkouts/queries.js';
import { keyedMailId } from '../../src/features/mail/enqueue.js';
import { receiptMailOwed } from '../../src/features/pay/receipt-mail.js';
import { formatDate } from '../../src/i18n/format.js';
import { dashboardSession } from '../http-helpers/dashboard-session.js';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture, type TestKey } from '../http-helpers/fixture.js';
import { expectError } from '../http-helpers/requests.js';
import { describeStores } from '../helpers.js';
import { type Received, type Receiver, startReceiver } from './receiver.js';

/**
 * The payers' mail of the commerce features against a real SMTP server on 127.0.0.1 (smtp-server,
 * parsed with mailparser), on both stores: an invoice sent (`POST …/invoices/{id}/send`), the
 * receipt of a checkout with customerEmail (once, however often the settlement is reported), a
 * refund link with `sendEmail: true`. What each says, who it is from, its links, and that what
 * the merchant typed (a name with <script> and CR/LF, line items, a memo) is escaped.
 */
const FROM = 'billing@pay.example.com';
const BASE = 'https://pay.example.com';
const EVIL_NAME = 'Bob <script>alert(1)</script>\r\nBcc: victim@example.com';
const SHOWN_NAME = 'Bob <script>alert(1)</script> Bcc: victim@example.com';
const LOGO = 'data:image/png;base64,iVBORw0KGgo=';

/** Every link of a mail's HTML part, unescaped. */
const linksOf = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
const imagesOf = (html: string) => [...html.matchAll(/<img [^>]*src="([^"]*)"/g)].map((m) => m[1]!);

/** What every payer mail must be: from the merchant by name, its Reply-To, no header added, nothing unescaped. */
function expectPayerMail(got: Received | undefined, to: string): asserts got is Received {
  expect(got, `no mail to ${to}`).toBeDefined();
  expect(got!.envelope.to).toEqual([to]);
  expect(got!.mail.from?.value[0]).toEqual({ name: SHOWN_NAME, address: FROM });
  expect(got!.mail.replyTo?.value[0]?.address).toBe('help@bob.example');
  expect(got!.mail.headers.has('bcc')).toBe(false);
  // The header block (the body may well wrap a line that starts with the name's "Bcc:").
  expect(got!.raw.split(/\r?\n\r?\n/)[0]).not.toMatch(/^Bcc:/im);
  expect(got!.mail.subject).not.toMatch(/[\r\n]/);
  const html = got!.mail.html as string;
  expect(html).not.toContain('<script');
  expect(html).toContain('Bob &lt;script&gt;alert(1)&lt;/script&gt;');
  // No tracking: no image but the merchant's own logo, and the footer says who sent it.
  expect(imagesOf(html)).toEqual([LOGO]);
  expect(got!.mail.text).toContain(`Sent by ${SHOWN_NAME} through hostpay`);
  expect(got!.mail.text).toContain('No tracking.');
}

describeStores('payer mail over SMTP', (dialect) => {
  let fx: HttpFixture;
  let rx: Receiver;
  let key: TestKey;
  let merchantId: string;
  const run = () => fx.services.mail.sender.runOnce();
  const rowsTo = (to: string) =>
    fx.services.store.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', to)
      .orderBy('created_at')
      .execute();
  const receivedBy = (to: string) => rx.received.filter((r) => r.envelope.to.includes(to));
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    checkoutCall(fx, key, method, url, body ?? (method === 'POST' ? {} : undefined), {
      ...(method === 'POST' ? { 'idempotency-key': `k-${Math.random().toString(36).slice(2)}` } : {}),
    });
  const payer = (what: string) => `${what}-${dialect}@example.com`;

  /** A checkout of `amount` USDT on TRON, paid in one report (confirmations 1: settled). */
  const checkout = async (amount: string, extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/api/v1/cp/psp/hosted-pay', {
      amount,
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return resultOf<{ id: string; paymentOptions: { address: string }[] }>(res);
  };
  let tx = 0;
  const report = (c: { paymentOptions: { address: string }[] }, amount: string, txHash = `0x${dialect}mail${++tx}`) =>
    fx.services.checkouts.reportTransfer(
      {
        chain: 'TRON',
        txHash,
        index: 0,
        toAddress: c.paymentOptions[0]!.address,
        asset: 'USDT',
        amount,
        confirmations: 1,
      },
      { operator: 'test' },
    );

  beforeAll(async () => {
    rx = await startReceiver();
    fx = await createFixture({ smtpUrl: rx.url, mailFrom: FROM, publicUrl: BASE }, {}, dialect);
    await configureChains(fx.services);
    merchantId = fx.demo.merchantId;
    key = await fx.createKey(merchantId, { scopes: [...SCOPES] });
    await fx.services.store.db
      .updateTable('merchants')
      .set({ display_name: EVIL_NAME, logo_url: LOGO, support_email: 'help@bob.example', legal_name: 'Bob & Co <Ltd>' })
      .where('id', '=', merchantId)
      .execute();
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    await rx?.close();
  });
  beforeEach(() => {
    rx.rcpt.length = 0;
    rx.data.length = 0;
  });

  it('an invoice sent is mailed to its customer: number, figures, due date, the page and its PDF, all escaped', async () => {
    const to = payer('ada');
    const due = new Date(Date.now() + 14 * 86_400_000).toISOString();
    const created = await call('POST', '/api/v1/cp/invoices', {
      currency: 'EUR',
      customer: { name: 'Ada <b>Lovelace</b>', email: to },
      lineItems: [
        {
          description: 'Consulting <i>hours</i>\r\nBcc: x@evil.example',
          quantity: 2,
          unitAmount: '10.50',
          taxPercent: 19,
        },
      ],
      memo: 'Thanks! <img src="https://tracker.example/pixel.gif">',
      dueAt: due,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = resultOf<{ id: string }>(created).id;
    // A draft cannot be sent, and a refusal writes no mail.
    expectError(await call('POST', `/api/v1/cp/invoices/${id}/send`), 409, 'INVOICE_STATE_CONFLICT');
    const open = resultOf<{ number: string; url: string }>(await call('POST', `/api/v1/cp/invoices/${id}/finalize`));
    expect(await rowsTo(to)).toHaveLength(0);

    const sent = await call('POST', `/api/v1/cp/invoices/${id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    const [row] = await rowsTo(to);
    // The mail holds the page's token: sealed at rest.
    expect(row).toMatchObject({ kind: 'invoice', to_role: 'payer', status: 'pending', data: null });
    expect(row!.data_sealed).not.toContain(open.url.split('/').pop());
    await run();
    const [got] = receivedBy(to);
    expectPayerMail(got, to);
    // In English (no language of the payer, no merchant default): amounts and the day in its words.
    const dueDay = formatDate('en', due);
    // 2 × 10.50 = 21, tax 19 % = 3.99: 24.99 EUR.
    expect(got.mail.subject).toBe(`Invoice ${open.number} from ${SHOWN_NAME}: €24.99 due by ${dueDay}`);
    for (const s of [
      open.number,
      'Total: €24.99',
      'Amount due: €24.99',
      `Due: ${dueDay}`,
      `${open.url}?lang=en`,
      `${open.url}/pdf?lang=en`,
    ])
      expect(got.mail.text).toContain(s);
    expect(got.mail.text).toContain('Hello Ada <b>Lovelace</b>');
    // A line's CR/LF does not break the line in two.
    expect(got.mail.text).toContain('2 × Consulting <i>hours</i> Bcc: x@evil.example: €21.00');
    const html = got.mail.html as string;
    expect(html).toContain('Hello Ada &lt;b&gt;Lovelace&lt;/b&gt;');
    expect(html).toContain('Consulting &lt;i&gt;hours&lt;/i&gt;');
    expect(html).toContain('&lt;img src=&quot;https://tracker.example/pixel.gif&quot;&gt;');
    // The links open the pages in the mail's language.
    expect(linksOf(html)).toEqual([`${open.url}?lang=en`, `${open.url}/pdf?lang=en`]);
    expect((await rowsTo(to))[0]).toMatchObject({ status: 'sent' });
    // The links work: the page and the PDF of this invoice.
    const path = new URL(open.url).pathname;
    expect((await fx.app.inject({ method: 'GET', url: `${path}?lang=en` })).statusCode).toBe(200);
    expect((await fx.app.inject({ method: 'GET', url: `${path}/pdf?lang=en` })).statusCode).toBe(200);
  });

  it('an invoice without customer.email is 422 CUSTOMER_EMAIL_MISSING and mails nobody', async () => {
    const created = await call('POST', '/api/v1/cp/invoices', {
      currency: 'EUR',
      customer: { name: 'Nobody' },
      lineItems: [{ description: 'x', quantity: 1, unitAmount: '5' }],
    });
    const id = resultOf<{ id: string }>(created).id;
    await call('POST', `/api/v1/cp/invoices/${id}/finalize`);
    const before = await fx.services.store.db.selectFrom('mail_outbox').select('id').execute();
    expectError(await call('POST', `/api/v1/cp/invoices/${id}/send`), 422, 'CUSTOMER_EMAIL_MISSING');
    expect(await fx.services.store.db.selectFrom('mail_outbox').select('id').execute()).toHaveLength(before.length);
  });

  it('a settled checkout with customerEmail mails its payer one receipt, however often the settlement is reported', async () => {
    const to = payer('receipt');
    const c = await checkout('25', { customerEmail: to, description: 'Order <b>7</b>' });
    expect(await rowsTo(to)).toHaveLength(0);
    const hash = `0x${dialect}receipt`;
    // The same payment reported twice at once and once more after: one settlement, one mail.
    await Promise.all([report(c, '25', hash), report(c, '25', hash)]);
    await report(c, '25', hash);
    const rows = await rowsTo(to);
    expect(rows.map((r) => [r.id, r.kind, r.to_role])).toEqual([[keyedMailId(`receipt:${c.id}`), 'receipt', 'payer']]);
    const settled = resultOf<{ status: string; receiptNumber: string; receiptUrl: string }>(
      await call('GET', `/api/v1/cp/psp/hosted-pay/${c.id}`),
    );
    expect(settled.status).toBe('settled');
    expect(settled.receiptUrl).toBe(`${BASE}/pay/${c.id}/receipt`);
    // The settlement's handler run again (as a retried transaction would): the mail's key keeps it one.
    await fx.services.store.writeTransaction(async (trx) => {
      const [loaded] = await loadCheckouts(trx, [(await findCheckout(trx, c.id))!]);
      await receiptMailOwed(trx, { checkout: loaded!, to: 'settled', reason: null, at: new Date().toISOString() });
    });
    expect(await rowsTo(to)).toHaveLength(1);
    await run();
    await run();
    expect(receivedBy(to)).toHaveLength(1);
    const [got] = receivedBy(to);
    expectPayerMail(got, to);
    expect(got.mail.subject).toBe(`Receipt ${settled.receiptNumber} from ${SHOWN_NAME}: 25 USDT`);
    for (const s of [
      `Receipt: ${settled.receiptNumber}`,
      'Total: 25 USDT', // the receipt's own label (an invoice's part payment says "This payment")
      'Paid with: 25 USDT on',
      hash,
      settled.receiptUrl,
    ])
      expect(got.mail.text).toContain(s);
    // Never the payer's own email, as on the receipt page.
    expect(got.mail.text).not.toContain(to);
    const html = got.mail.html as string;
    expect(html).toContain('Order &lt;b&gt;7&lt;/b&gt;');
    expect(html).toContain('Bob &amp; Co &lt;Ltd&gt;');
    const links = linksOf(html);
    expect(links.slice(0, 2)).toEqual([`${settled.receiptUrl}?lang=en`, `${BASE}/pay/${c.id}/receipt.pdf?lang=en`]);
    expect(links).toHaveLength(2);
    expect((await fx.app.inject({ method: 'GET', url: `/pay/${c.id}/receipt?lang=en` })).statusCode).toBe(200);
  });

  it('no receipt without customerEmail, nor when the merchant turned emailReceipts off', async () => {
    const none = await checkout('3');
    await report(none, '3');
    const owner = await dashboardSession(fx, merchantId);
    const settings = async (payload: Record<string, unknown>) => {
      const res = await fx.app.inject({
        method: 'PATCH',
        url: '/dashboard/api/settings',
        headers: owner.headers(),
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      return JSON.parse(res.body).result as { emailReceipts: boolean };
    };
    expect((await settings({ taxId: 'DE123' })).emailReceipts).toBe(true);
    expect((await settings({ emailReceipts: false })).emailReceipts).toBe(false);
    const off = payer('off');
    const c = await checkout('4', { customerEmail: off });
    await report(c, '4');
    expect(await rowsTo(off)).toHaveLength(0);
    await settings({ emailReceipts: true });
    const on = payer('on');
    const d = await checkout('5', { customerEmail: on });
    await report(d, '5');
    expect((await rowsTo(on)).map((r) => r.kind)).toEqual(['receipt']);
    const kinds = await fx.services.store.db
      .selectFrom('mail_outbox')
      .select('kind')
      .where('kind', '=', 'receipt')
      .where('data', 'like', `%${none.id}%`)
      .execute();
    expect(kinds).toHaveLength(0);
  });

  it('a refund link with sendEmail is mailed to the payer; without a known address it is 422', async () => {
    const to = payer('refund');
    const c = await checkout('30', { customerEmail: to });
    await report(c, '30');
    const link = await call('POST', `/api/v1/cp/psp/hosted-pay/${c.id}/refund-link`, {
      amount: '12.5',
      sendEmail: true,
    });
    expect(link.statusCode, link.body).toBe(201);
    const url = resultOf<{ url: string }>(link).url;
    const rows = (await rowsTo(to)).filter((r) => r.kind === 'refund-link');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ data: null, to_role: 'payer' });
    expect(rows[0]!.data_sealed).not.toContain(url.split('/').pop());
    await run();
    const got = receivedBy(to).find((r) => r.mail.subject?.includes('refunding'));
    expectPayerMail(got, to);
    expect(got.mail.subject).toBe(`${SHOWN_NAME} is refunding your payment: 12.5 USDT`);
    expect(got.mail.text).toContain(url);
    expect(linksOf(got.mail.html as string)).toEqual([`${url}?lang=en`]);
    expect((await fx.app.inject({ method: 'GET', url: `${new URL(url).pathname}?lang=en` })).statusCode).toBe(200);

    // Without a destination POST …/refunds answers a link too; customerEmail sends it elsewhere.
    const other = payer('other');
    const viaRefunds = await call('POST', `/api/v1/cp/psp/hosted-pay/${c.id}/refunds`, {
      amount: '1',
      sendEmail: true,
      customerEmail: other,
    });
    expect(viaRefunds.statusCode, viaRefunds.body).toBe(201);
    await run();
    expect(receivedBy(other)[0]!.mail.text).toContain(resultOf<{ url: string }>(viaRefunds).url);
    expect(receivedBy(other)[0]!.mail.subject).toBe(`${SHOWN_NAME} is refunding your payment: 1 USDT`);

    // Without sendEmail nothing is mailed.
    const count = (await rowsTo(to)).length;
    expect((await call('POST', `/api/v1/cp/psp/hosted-pay/${c.id}/refund-link`, { amount: '1' })).statusCode).toBe(201);
    expect(await rowsTo(to)).toHaveLength(count);

    const anonymous = await checkout('6');
    await report(anonymous, '6');
    const links = () => fx.services.store.db.selectFrom('refund_links').select('id').execute();
    const before = (await links()).length;
    const path = `/api/v1/cp/psp/hosted-pay/${anonymous.id}`;
    expectError(await call('POST', `${path}/refund-link`, { sendEmail: true }), 422, 'CUSTOMER_EMAIL_MISSING');
    expectError(await call('POST', `${path}/refunds`, { amount: '1', sendEmail: true }), 422, 'CUSTOMER_EMAIL_MISSING');
    expectError(await call('POST', `${path}/refund-link`, { customerEmail: other }), 400, 'INVALID_BODY');
    expectError(
      await call('POST', `${path}/refund-link`, { sendEmail: true, customerEmail: 'A <a@b.example>' }),
      400,
      'INVALID_EMAIL',
    );
    expectError(
      await call('POST', `${path}/refunds`, { amount: '1', destination: 'TXYZ', sendEmail: true }),
      400,
      'INVALID_BODY',
    );
    expect(await links()).toHaveLength(before);
  });
});

describeStores("payer mail in the merchant's default language", (dialect) => {
  let fx: HttpFixture;
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver();
    fx = await createFixture({ smtpUrl: rx.url, mailFrom: FROM, publicUrl: BASE }, {}, dialect);
    await configureChains(fx.services);
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    await rx?.close();
  });

  it('a merchant whose default language is German mails its payers in German, its links opening the pages in German', async () => {
    const owner = await dashboardSession(fx, fx.demo.merchantId);
    const patch = async (language: string | null) => {
      const res = await fx.app.inject({
        method: 'PATCH',
        url: '/dashboard/api/settings',
        headers: owner.headers(),
        payload: { language },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const receiptTo = async (to: string) => {
      const create = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', {
        amount: '25',
        currency: 'USDT',
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
        customerEmail: to,
      });
      const c = resultOf<{ id: string; paymentOptions: { address: string }[] }>(create);
      await fx.services.checkouts.reportTransfer(
        {
          chain: 'TRON',
          txHash: `0x${dialect}${to.split('@')[0]}`,
          index: 0,
          toAddress: c.paymentOptions[0]!.address,
          asset: 'USDT',
          amount: '25',
          confirmations: 1,
        },
        { operator: 'test' },
      );
      await fx.services.mail.sender.runOnce();
      const got = rx.received.find((r) => r.envelope.to.includes(to));
      expect(got, `no mail to ${to}`).toBeDefined();
      return { got: got!, id: c.id };
    };
    await patch('de');
    const de = await receiptTo(`lang-de-${dialect}@example.com`);
    expect(de.got.mail.subject).toMatch(/^Quittung RCPT-\d{6} von .*: 25 USDT$/);
    expect(de.got.mail.text).toContain('Vielen Dank für Ihre Zahlung');
    expect(de.got.mail.html).toContain('<html lang="de" dir="ltr">');
    expect(linksOf(de.got.mail.html as string)).toEqual([
      `${BASE}/pay/${de.id}/receipt?lang=de`,
      `${BASE}/pay/${de.id}/receipt.pdf?lang=de`,
    ]);
    // Cleared: English again.
    await patch(null);
    const en = await receiptTo(`lang-en-${dialect}@example.com`);
    expect(en.got.mail.subject).toMatch(/^Receipt RCPT-\d{6} from /);
    expect(en.got.mail.html).toContain('<html lang="en" dir="ltr">');
  });
});

describeStores('payer mail on a sandbox', (dialect) => {
  let fx: HttpFixture;
  let rx: Receiver;
  beforeAll(async () => {
    rx = await startReceiver();
    fx = await createFixture({ sandbox: true, smtpUrl: rx.url, mailFrom: FROM, publicUrl: BASE }, {}, dialect);
    await configureChains(fx.services);
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    await rx?.close();
  });

  it('is kept, not sent, with a [Sandbox] subject; the dashboard user still gets theirs', async () => {
    const to = `sandbox-${dialect}@example.com`;
    const create = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', {
      amount: '10',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      customerEmail: to,
    });
    const id = resultOf<{ id: string }>(create).id;
    const paid = await checkoutCall(fx, fx.demo, 'POST', `/api/v1/cp/psp/hosted-pay/${id}/simulate-payment`, {
      asset: 'USDT',
      chain: 'TRON',
    });
    expect(resultOf<{ status: string }>(paid).status).toBe('settled');
    const owner = `sandbox-owner-${dialect}@example.com`;
    await fx.services.admin.inviteMerchantUser(fx.demo.merchantId, owner, 'owner', { operator: 'test' });
    await fx.services.mail.sender.runOnce();
    const list = await fx.services.admin.listMail({ to }, {});
    expect(list.items.map((m) => [m.kind, m.status])).toEqual([['receipt', 'kept']]);
    expect(list.items[0]!.subject).toMatch(/^\[Sandbox\] Receipt RCPT-\d{6} from /);
    const detail = await fx.services.admin.getMail(list.items[0]!.id);
    expect(detail.text).toContain('Sandbox: this mail is a test, no real money moved.');
    expect(detail.text).toContain(`${BASE}/pay/${id}/receipt`);
    expect(rx.received.filter((r) => r.envelope.to.includes(to))).toHaveLength(0);
    // Mail to the merchant's own users is sent from a sandbox (with the prefix).
    expect(rx.received.find((r) => r.envelope.to.includes(owner))?.mail.subject).toMatch(/^\[Sandbox\] /);
  });
});
