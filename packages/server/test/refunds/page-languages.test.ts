import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exact,
  paidCheckout,
  pathOf,
  type RefundFixture,
  refundFixture,
  refundLink,
  spareTronAddress,
  submit,
} from './helpers.js';

/** The refund page in the payer's language (issue 48): chosen by ?lang=, the cookie or Accept-Language. */
describe('the refund page in the payer’s language', () => {
  let fx: RefundFixture;
  let payerTron: string;
  beforeAll(async () => {
    fx = await refundFixture('sqlite');
    payerTron = await spareTronAddress(fx);
  });
  afterAll(() => fx.drop());

  const newLink = async (amount = '25') =>
    pathOf(exact<{ url: string }>(await refundLink(fx, await paidCheckout(fx), { amount })).url);
  const get = (url: string, headers: Record<string, string> = {}) => fx.app.inject({ method: 'GET', url, headers });
  const langOf = (res: LightMyRequestResponse) => /<html lang="([^"]+)" dir="([^"]+)">/.exec(res.body)?.slice(1);

  it('?lang= picks the language, is remembered in a cookie, and the form posts back with it', async () => {
    const path = await newLink();
    const res = await get(`${path}?lang=ru`);
    expect(res.statusCode).toBe(200);
    expect(langOf(res)).toEqual(['ru', 'ltr']);
    expect(res.headers['set-cookie']).toMatch(/^hostpay_lang=ru;/);
    expect(res.body).toContain('<p class="to">Возврат от</p>');
    expect(res.body).toContain('<label for="address">Ваш адрес USDT в сети TRC20</label>');
    // The address's shape in words, its count in Russian plural (34 → "символа").
    expect(res.body).toContain('Начинается с T, длина — 34 символа.');
    expect(res.body).toContain(`action="${path}?lang=ru"`);
    expect(res.body).toContain('<button type="submit">Отправить возврат на этот адрес</button>');
    expect(res.body).toContain('<p class="amount"><bdi dir="ltr">25\u00a0USDT</bdi></p>');
    // The picker: this page in every language.
    expect(res.body).toContain(`href="${path}?lang=ar" hreflang="ar" lang="ar"`);
    expect(res.body).not.toMatch(/Refund from|Send my refund/);
  });

  it('a refused address re-renders in the language of the page it came from (?lang= of the action)', async () => {
    const path = await newLink();
    const wrong = '0x52908400098527886E0F7030069857D2E4169EE7';
    const res = await submit(fx, `${path}?lang=es`, wrong);
    expect(res.statusCode).toBe(400);
    expect(langOf(res)).toEqual(['es', 'ltr']);
    expect(res.body).toContain(
      '<p class="field-error" id="address-error">No se puede enviar el reembolso a esta dirección: comprueba que sea tu dirección de USDT en la red TRC20, completa y sin errores.</p>',
    );
    expect(res.body).toContain(`value="${wrong}"`);
    expect(res.body).toContain('<title>Revisa la dirección · hostpay</title>');
  });

  it('the cookie alone carries the pick to the post: an empty address is refused in German', async () => {
    const path = await newLink();
    const res = await submit(fx, path, '  ', { cookie: 'hostpay_lang=de' });
    expect(res.statusCode).toBe(400);
    expect(langOf(res)).toEqual(['de', 'ltr']);
    expect(res.body).toContain('Geben Sie die Adresse ein, an die die Erstattung gehen soll.');
    expect(res.body).toContain(`action="${path}"`); // no ?lang=: the cookie chose it, not the payer on this page
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('Accept-Language: Arabic right to left; the requested refund keeps amount and address left to right', async () => {
    const path = await newLink('7.5');
    const ar = { 'accept-language': 'ar-EG,ar;q=0.9,en;q=0.5' };
    const page = await get(path, ar);
    expect(langOf(page)).toEqual(['ar', 'rtl']);
    expect(page.body).toContain('<input id="address" name="address" type="text" dir="ltr"');
    const res = await submit(fx, path, payerTron, ar);
    expect(res.statusCode, res.body).toBe(201);
    expect(langOf(res)).toEqual(['ar', 'rtl']);
    expect(res.body).toContain('<h2 id="state-title">تم طلب الاسترداد</h2>');
    expect(res.body).toContain(
      `سيُرسَل <bdi dir="ltr">7.5\u00a0USDT</bdi> إلى <code class="tx" dir="ltr">${payerTron}</code>.`,
    );
    // Used: the 410 page in French, with the day it was used written in French.
    const used = await get(`${path}?lang=fr`);
    expect(used.statusCode).toBe(410);
    expect(used.body).toContain('Ce lien de remboursement a déjà été utilisé');
    expect(used.body).toMatch(/Une adresse a été donnée le \d{1,2} \S+ \d{4} à \d{2}:\d{2} UTC/);
  });

  it('a burn address, an unknown link, a cross-site post and the limit page are in the payer’s language too', async () => {
    const path = await newLink();
    const burn = await submit(fx, `${path}?lang=it`, 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb');
    expect(burn.statusCode).toBe(400);
    expect(burn.body).toContain('nessuno ne possiede la chiave');
    const unknown = await get(`/pay/chk_x/refund/${'A'.repeat(43)}?lang=zh-CN`);
    expect(unknown.statusCode).toBe(404);
    expect(langOf(unknown)).toEqual(['zh-CN', 'ltr']);
    expect(unknown.body).toContain('未找到退款链接');
    const cross = await submit(fx, `${path}?lang=ja`, payerTron, { 'sec-fetch-site': 'cross-site' });
    expect(cross.statusCode).toBe(403);
    expect(langOf(cross)).toEqual(['ja', 'ltr']);
    expect(cross.body).toContain('返金は申請されていません');
  });
});
