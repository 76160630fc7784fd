import { afterAll, beforeAll, expect, it } from 'vitest';
import { mailColours } from '../../src/features/mail/layout.js';
import { type RenderDeps, renderRow, senderOf } from '../../src/features/mail/render.js';
import { BUILT_IN_TEMPLATES } from '../../src/features/mail/templates.js';
import { refundLinkMailTemplate } from '../../src/features/refunds/mail.js';
import { describeStores } from '../helpers.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';

/**
 * The merchant's colours in their payers' mails (docs/mail.md): read with the merchant's other
 * details, the brand colour is the band along the card's top and the button, the accent the URL
 * under it; a mail of a merchant without colours, a mail to their own team, and a stored value
 * that is not a checked `#rrggbb` keep the layout's own.
 */
const BRAND = '#7a1fa2';
const ACCENT = '#0b6e4f';
const DEFAULT = mailColours({});

const REFUND = {
  checkoutId: 'chk_colour',
  amount: '12.5',
  fixed: false,
  asset: 'USDT',
  network: 'TRC20',
  url: 'https://pay.example.com/r/tok_refund',
  expiresAt: '2026-12-06T18:30:00.000Z',
};

describeStores('mail colours', (dialect) => {
  let fx: HttpFixture;
  let deps: RenderDeps;
  let merchantId: string;
  const setColours = (brand: string | null, accent: string | null) =>
    fx.services.store.db
      .updateTable('merchants')
      .set({ brand_color: brand, accent_color: accent })
      .where('id', '=', merchantId)
      .execute();
  const render = async (role: 'payer' | 'user' = 'payer') => {
    const row = {
      id: 'mail_colour',
      kind: 'refund-link',
      merchant_id: merchantId,
      to_role: role,
      data: JSON.stringify(REFUND),
      data_sealed: null,
    };
    const out = await renderRow(deps, row);
    if (out === null) throw new Error('no mail');
    return out.html;
  };
  const button = (html: string) => /<a href="[^"]*" style="[^"]*background:(#[0-9a-f]+);color:#fff/.exec(html)?.[1];
  const urlColour = (html: string) => /<p dir="ltr" style="[^"]*color:(#[0-9a-f]+);word-break/.exec(html)?.[1];

  beforeAll(async () => {
    fx = await createFixture({}, {}, dialect);
    merchantId = fx.demo.merchantId;
    deps = {
      db: fx.services.store.db,
      box: { open: () => Buffer.from('{}') },
      baseUrl: () => 'https://pay.example.com',
      sandbox: false,
      templates: () => [...BUILT_IN_TEMPLATES, refundLinkMailTemplate],
    };
  });
  afterAll(() => fx.close());

  it('a payer mail of a merchant with colours carries them: the band, the button, the URL under it', async () => {
    await setColours(BRAND, ACCENT);
    expect(await senderOf(fx.services.store.db, merchantId)).toMatchObject({ brandColor: BRAND, accentColor: ACCENT });
    const html = await render();
    expect(html).toContain(`border-top:6px solid ${BRAND};`);
    expect(button(html)).toBe(BRAND);
    expect(urlColour(html)).toBe(ACCENT);
  });

  it("the merchant's own team's mail keeps the layout's colours", async () => {
    await setColours(BRAND, ACCENT);
    const html = await render('user');
    expect(html).not.toContain(BRAND);
    expect(html).not.toContain(ACCENT);
    expect(button(html)).toBe(DEFAULT.accent);
  });

  it('without colours a payer mail has the defaults and no band', async () => {
    await setColours(null, null);
    const html = await render();
    expect(html).not.toContain('border-top:6px');
    expect(button(html)).toBe(DEFAULT.accent);
    expect(urlColour(html)).toBe(DEFAULT.link);
  });

  it('a stored value that is not a checked #rrggbb falls back to the default and never reaches the HTML', async () => {
    for (const bad of ['red', '#ABCDEF', '#abc', '#7a1fa2;background:url(https://t.example/x)', '#7a1fa2"><script>']) {
      await setColours(bad, bad);
      const html = await render();
      expect(html, bad).not.toContain(bad);
      expect(html, bad).not.toContain('border-top:6px');
      expect(button(html), bad).toBe(DEFAULT.accent);
      expect(urlColour(html), bad).toBe(DEFAULT.link);
    }
    // One good, one bad: each colour stands alone.
    await setColours(BRAND, 'javascript:1');
    const html = await render();
    expect(button(html)).toBe(BRAND);
    expect(urlColour(html)).toBe(DEFAULT.link);
  });
});
