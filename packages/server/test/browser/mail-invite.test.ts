import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCaller, OPERATOR_TOKENS } from '../http-helpers/admin-fixture.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { type Receiver, startReceiver } from '../mail/receiver.js';
import { axeViolations } from './axe.js';
import { launchChromium } from './chromium.js';
import { pageGuard } from './guard.js';
import { stepOf, totpAt } from './totp.js';

/**
 * Mail in Chromium: an owner invited by an operator follows the link of the mail a real SMTP
 * server on 127.0.0.1 received, sets a password and enrols TOTP; switches a notification on in
 * the Notifications page; then, signed out, asks for a reset link from the sign-in page and
 * finds it in the next mail.
 */
const OWNER = 'mailed-owner@shop.example';
const PASSWORD = 'correct horse battery staple';
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 8_000 });

describe('mail followed in Chromium', () => {
  let fx: HttpFixture;
  let rx: Receiver;
  let base: string;
  let browser: Browser;
  let page: Page;
  const guard = pageGuard();
  const admin = adminCaller(() => fx.app);
  const mailsTo = (to: string) => rx.received.filter((r) => r.envelope.to.includes(to));

  beforeAll(async () => {
    rx = await startReceiver();
    fx = await createFixture({ adminTokens: OPERATOR_TOKENS, smtpUrl: rx.url, mailFrom: 'billing@shop.example' });
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
    fx.services.setListenUrl(base);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(8_000);
    guard.watch(page);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
    await rx?.close();
  });

  it('the invited owner follows the link of the received mail, sets a password, enrols and gets in', async () => {
    const res = await admin('POST', `/merchants/${fx.demo.merchantId}/user-invitations`, { body: { email: OWNER } });
    expect(res.statusCode, res.body).toBe(201);
    await fx.services.mail.sender.runOnce();
    const [mail] = mailsTo(OWNER);
    expect(mail!.mail.subject).toMatch(/^You are invited to /);
    const link = mail!.mail.text!.match(/https?:\/\/\S+\/dashboard\/invitation\/[A-Za-z0-9_-]+/)![0];
    expect(link.startsWith(`${base}/dashboard/invitation/`)).toBe(true);
    // The HTML part's button is the same link.
    expect(mail!.mail.html).toContain(`href="${link}"`);
    await page.goto(link);
    await poll(() => page.locator('main').textContent()).toContain(OWNER);
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('New password again').fill(PASSWORD);
    await page.getByLabel('New password again').press('Enter');
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('Authentication code').fill(totpAt(secret, stepOf(Date.now())));
    await page.getByLabel('Authentication code').press('Enter');
    await page.getByRole('button', { name: /I have saved them/ }).click();
    await poll(() => page.getByTestId('user').textContent()).toBe(OWNER);
    await guard.check();
  });

  it('the Notifications page switches a notification on; the server keeps it', async () => {
    await page.getByRole('link', { name: 'Notifications' }).click();
    const settled = page.getByLabel('A checkout was paid and settled');
    await poll(() => settled.isChecked()).toBe(false);
    expect(await page.getByLabel('A checkout needs review').isChecked()).toBe(true);
    expect(
      (await axeViolations(page)).map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`),
    ).toEqual([]);
    await settled.check();
    await page.getByRole('button', { name: 'Save notifications' }).click();
    await poll(() => page.getByText('Notifications saved.').count()).toBe(1);
    const user = await fx.services.store.db
      .selectFrom('merchant_users')
      .select('id')
      .where('email', '=', OWNER)
      .executeTakeFirstOrThrow();
    expect((await fx.services.mail.preferences.get(user.id)).checkoutSettled).toBe(true);
    await guard.check();
  });

  it('signed out, "Forgot password?" mails a reset link that opens the reset page', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email of your account').fill(OWNER);
    await page.getByRole('button', { name: 'Mail me a reset link' }).click();
    await poll(() => page.getByText(/a reset link is on its way/).count()).toBe(1);
    await fx.services.mail.sender.runOnce();
    const reset = mailsTo(OWNER).find((m) => m.mail.subject?.startsWith('Reset your'));
    const link = reset!.mail.text!.match(/https?:\/\/\S+\/dashboard\/password-reset\/[A-Za-z0-9_-]+/)![0];
    await page.goto(link);
    await poll(() => page.locator('main').textContent()).toContain(OWNER);
    await guard.check();
  });
});
