import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { dashboardSession } from '../http-helpers/dashboard-session.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { describeStores } from '../helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

/**
 * Mail against a real SMTP server on 127.0.0.1 (smtp-server, parsed with mailparser), on both
 * stores: what each kind says, the headers (From phrase, Reply-To, Message-ID), retries on 4xx,
 * 5xx recorded, a server gone mid-message, hard bounces, header injection, the preferences.
 */
const FROM = 'billing@pay.example.com';
const audit = { operator: 'test' };

describeStores('mail over SMTP', (dialect) => {
  let fx: HttpFixture;
  let rx: Receiver;
  let merchantId: string;
  const mail = () => fx.services.mail;
  const run = () => mail().sender.runOnce();
  const rowsTo = (to: string) =>
    fx.services.store.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', to)
      .orderBy('created_at')
      .execute();
  const receivedBy = (to: string) => rx.received.filter((r) => r.envelope.to.includes(to));

  beforeAll(async () => {
    rx = await startReceiver();
    fx = await createFixture(
      { smtpUrl: rx.url, mailFrom: FROM, publicUrl: 'https://pay.example.com' },
      { mail: { sender: { retryMs: () => 0 } } },
      dialect,
    );
    merchantId = await fx.createMerchant('Acme Shop');
  });
  afterAll(async () => {
    await fx.close();
    await rx.close();
  });
  beforeEach(() => {
    rx.rcpt.length = 0;
    rx.data.length = 0;
  });

  it("an operator's invitation is mailed: the link, the merchant's name as the From phrase, a stable Message-ID, text and HTML", async () => {
    const to = `owner-${dialect}@example.com`;
    const link = await fx.services.admin.inviteMerchantUser(merchantId, to, 'owner', audit);
    const [row] = await rowsTo(to);
    expect(row).toMatchObject({ kind: 'invitation', status: 'pending', data: null });
    // The link token is sealed at rest.
    expect(row!.data_sealed).not.toBeNull();
    expect(row!.data_sealed).not.toContain(link.link.split('/').pop());
    await run();
    const [got] = receivedBy(to);
    expect(got, JSON.stringify(await rowsTo(to))).toBeDefined();
    expect(got!.mail.from?.value[0]).toEqual({ name: 'Acme Shop', address: FROM });
    expect(got!.mail.messageId).toBe(`<${row!.id}@pay.example.com>`);
    expect(got!.mail.subject).toBe('You are invited to Acme Shop on hostpay');
    expect(got!.mail.text).toContain(link.link);
    expect(got!.mail.html).toContain(link.link);
    expect(got!.mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(got!.envelope.from).toBe(FROM);
    expect((await rowsTo(to))[0]).toMatchObject({ status: 'sent', attempts: 1 });
    // The link of the mail is the invitation.
    const token = got!.mail.text!.match(/\/dashboard\/invitation\/([A-Za-z0-9_-]+)/)![1];
    const info = await fx.app.inject({ method: 'GET', url: `/dashboard/api/invitations/${token}` });
    expect(info.statusCode).toBe(200);
  });

  it('a merchant name or address with CR/LF cannot add a header; a bad address is 400 INVALID_EMAIL', async () => {
    const evil = await fx.createMerchant('Evil\r\nBcc: victim@example.com');
    await fx.services.store.db
      .updateTable('merchants')
      .set({ display_name: 'Evil\r\nBcc: victim@example.com\r\nSubject: pwned' })
      .where('id', '=', evil)
      .execute();
    const to = `crlf-${dialect}@example.com`;
    await fx.services.admin.inviteMerchantUser(evil, to, 'owner', audit);
    await run();
    const [got] = receivedBy(to);
    expect(got!.envelope.to).toEqual([to]);
    expect(got!.mail.headers.has('bcc')).toBe(false);
    expect(got!.mail.from?.value[0]?.name).toBe('Evil Bcc: victim@example.com Subject: pwned');
    expect(got!.mail.subject).not.toContain('\n');
    expect(got!.raw).not.toMatch(/^Bcc:/im);
    for (const bad of [
      'a@example.com\r\nBcc: x@example.com',
      'Name <a@example.com>',
      'a@example.com,b@example.com',
      `${'a'.repeat(250)}@example.com`,
    ]) {
      await expect(fx.services.admin.inviteMerchantUser(merchantId, bad, 'owner', audit), bad).rejects.toMatchObject({
        code: 'INVALID_EMAIL',
      });
      const res = await fx.app.inject({
        method: 'POST',
        url: '/dashboard/api/password-reset-requests',
        payload: { email: bad },
      });
      expect(res.statusCode, bad).toBe(400);
      expect(JSON.parse(res.body).error.code, bad).toBe('INVALID_EMAIL');
    }
    expect(await rowsTo('x@example.com')).toHaveLength(0);
  });

  it('a 4xx is retried and then sent once; a 5xx on DATA is recorded as failed', async () => {
    const to = `retry-${dialect}@example.com`;
    rx.rcpt.push({ code: 451, message: 'try again later' });
    await fx.services.admin.inviteMerchantUser(merchantId, to, 'admin', audit);
    await run();
    expect(receivedBy(to)).toHaveLength(0);
    const [waiting] = await rowsTo(to);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(waiting!.last_error).toMatch(/451/);
    await run();
    expect(receivedBy(to)).toHaveLength(1);
    expect((await rowsTo(to))[0]).toMatchObject({ status: 'sent', attempts: 2 });

    const to5 = `data5-${dialect}@example.com`;
    rx.data.push({ code: 554, message: 'message refused' });
    await fx.services.admin.inviteMerchantUser(merchantId, to5, 'admin', audit);
    await run();
    await run();
    const [failed] = await rowsTo(to5);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed!.last_error).toMatch(/554/);
    expect(receivedBy(to5)).toHaveLength(0);
  });

  it('a server that goes away mid-message: the mail stays owed and is sent on the next round', async () => {
    const to = `drop-${dialect}@example.com`;
    rx.data.push('drop');
    await fx.services.admin.inviteMerchantUser(merchantId, to, 'admin', audit);
    await run();
    expect(receivedBy(to)).toHaveLength(0);
    expect((await rowsTo(to))[0]).toMatchObject({ status: 'pending', attempts: 1 });
    await run();
    expect(receivedBy(to)).toHaveLength(1);
    expect((await rowsTo(to))[0]!.status).toBe('sent');
  });

  it('a hard bounce (5xx on RCPT) is recorded, shown to the merchant, and the address is not mailed again', async () => {
    const owner = await dashboardSession(fx, merchantId);
    const to = `bounce-${dialect}@example.com`;
    rx.rcpt.push({ code: 550, message: 'no such user' });
    await fx.services.admin.inviteMerchantUser(merchantId, to, 'viewer', audit);
    await run();
    expect((await rowsTo(to))[0]).toMatchObject({ status: 'bounced' });
    const bounces = await fx.app.inject({
      method: 'GET',
      url: '/dashboard/api/mail-bounces',
      headers: owner.headers(),
    });
    expect(bounces.statusCode).toBe(200);
    const items = (JSON.parse(bounces.body) as { result: { items: { address: string; reason: string }[] } }).result
      .items;
    expect(items.find((b) => b.address === to)?.reason).toMatch(/550/);
    // A second mail to it is suppressed, never sent.
    await fx.services.store.writeTransaction((trx) =>
      mail().enqueue(trx, { merchantId, kind: 'password-reset', to, toRole: 'user', data: { link: 'x' } }),
    );
    const before = rx.received.length;
    await run();
    expect(rx.received.length).toBe(before);
    expect((await rowsTo(to)).map((r) => r.status)).toEqual(['bounced', 'suppressed']);
  });

  it('forgot password mails a reset link that works; a password change sends a security notice', async () => {
    const user = await dashboardSession(fx, merchantId);
    const res = await fx.app.inject({
      method: 'POST',
      url: '/dashboard/api/password-reset-requests',
      payload: { email: user.email },
    });
    expect(res.statusCode).toBe(202);
    const unknown = await fx.app.inject({
      method: 'POST',
      url: '/dashboard/api/password-reset-requests',
      payload: { email: `nobody-${dialect}@example.com` },
    });
    expect(unknown.statusCode).toBe(202);
    await run();
    const [reset] = receivedBy(user.email);
    expect(reset!.mail.subject).toBe('Reset your Acme Shop dashboard password');
    const token = reset!.mail.text!.match(/\/dashboard\/password-reset\/([A-Za-z0-9_-]+)/)![1];
    expect((await fx.app.inject({ method: 'GET', url: `/dashboard/api/password-reset/${token}` })).statusCode).toBe(
      200,
    );
    expect(receivedBy(`nobody-${dialect}@example.com`)).toHaveLength(0);

    const changed = await fx.app.inject({
      method: 'POST',
      url: '/dashboard/api/password',
      headers: user.headers(),
      payload: { currentPassword: user.password, newPassword: 'another long enough password' },
    });
    expect(changed.statusCode).toBe(200);
    await run();
    const notice = receivedBy(user.email).find((r) => r.mail.subject?.startsWith('Security notice'));
    expect(notice!.mail.text).toContain('The password of your dashboard account was changed.');
  });

  it('an API key created from the dashboard notifies the owners; notifications follow each user’s preferences', async () => {
    const owner = await dashboardSession(fx, merchantId);
    const created = await fx.app.inject({
      method: 'POST',
      url: '/dashboard/api/keys',
      headers: owner.headers(),
      payload: {},
    });
    expect(created.statusCode).toBe(201);
    await run();
    expect(receivedBy(owner.email).some((r) => r.mail.text?.includes('An API key was created.'))).toBe(true);

    const prefs = await fx.app.inject({ method: 'GET', url: '/dashboard/api/notifications', headers: owner.headers() });
    expect(JSON.parse(prefs.body).result).toEqual({
      checkoutSettled: false,
      checkoutNeedsReview: true,
      payoutCompleted: false,
      payoutFailed: true,
      refundCompleted: true,
      webhookEndpointDisabled: true,
    });
    const append = (type: 'checkout.settled' | 'checkout.needs_review') =>
      fx.services.store.writeTransaction((trx) =>
        fx.services.outbox.append(
          trx,
          merchantId,
          type,
          '{"id":"co_mail1","amount":"12.5","currency":"EUR","orderId":"<b>x</b>"}',
          new Date().toISOString(),
        ),
      );
    await append('checkout.settled');
    await append('checkout.needs_review');
    await run();
    const mine = () => receivedBy(owner.email).filter((r) => r.mail.subject?.startsWith('Acme Shop:'));
    expect(mine().map((r) => r.mail.subject)).toEqual([
      'Acme Shop: A checkout needs your review (paid late, overpaid or paid twice)',
    ]);
    // What the merchant's order id says is escaped in the HTML.
    expect(mine()[0]!.mail.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    const patched = await fx.app.inject({
      method: 'PATCH',
      url: '/dashboard/api/notifications',
      headers: owner.headers(),
      payload: { checkoutSettled: true, checkoutNeedsReview: false },
    });
    expect(JSON.parse(patched.body).result).toMatchObject({ checkoutSettled: true, checkoutNeedsReview: false });
    await append('checkout.settled');
    await append('checkout.needs_review');
    await run();
    expect(mine().map((r) => r.mail.subject)).toEqual([
      'Acme Shop: A checkout needs your review (paid late, overpaid or paid twice)',
      'Acme Shop: A checkout was paid and settled',
    ]);
  });

  it('a stored address the check now refuses fails its mail, and the change that caused it still commits', async () => {
    const owner = await dashboardSession(fx, merchantId);
    const legacy = `ops-${dialect}@localhost`;
    await fx.services.store.db
      .updateTable('merchant_users')
      .set({ email: legacy })
      .where('email', '=', owner.email)
      .execute();
    const created = await fx.app.inject({
      method: 'POST',
      url: '/dashboard/api/keys',
      headers: owner.headers(),
      payload: {},
    });
    expect(created.statusCode, created.body).toBe(201);
    const [row] = await rowsTo(legacy);
    expect(row).toMatchObject({ status: 'failed' });
    expect(row!.last_error).toMatch(/^not sent: the address /);
  });

  it("the merchant's support address is the Reply-To; operators list every mail", async () => {
    await fx.services.store.db
      .updateTable('merchants')
      .set({ support_email: 'help@acme.example' })
      .where('id', '=', merchantId)
      .execute();
    const to = `reply-${dialect}@example.com`;
    await fx.services.admin.inviteMerchantUser(merchantId, to, 'viewer', audit);
    await run();
    expect(receivedBy(to)[0]!.mail.replyTo?.value[0]?.address).toBe('help@acme.example');
    const list = await fx.services.admin.listMail({ to }, {});
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      to,
      status: 'sent',
      kind: 'invitation',
      subject: 'You are invited to Acme Shop on hostpay',
    });
    const detail = await fx.services.admin.getMail(list.items[0]!.id);
    expect(detail.text).toContain('/dashboard/invitation/');
  });
});
