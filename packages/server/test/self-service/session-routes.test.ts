import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureChains, resultOf } from '../http-helpers/checkouts.js';
import { dashboardSession, type DashboardSession } from '../http-helpers/dashboard-session.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { expectError } from '../http-helpers/requests.js';
import { merchantCall } from '../http-helpers/webhooks.js';
import { describeStores } from '../helpers.js';

/**
 * The self-service routes reached with a dashboard session: the two merchant routes (the session
 * as a second way in), API keys and settings under /dashboard/api (session only, roles, CSRF on
 * every write), and what must never happen: another merchant's objects, a viewer's write, a
 * write without the CSRF token.
 */
describeStores('dashboard session routes', (dialect) => {
  let fx: HttpFixture;
  let owner: DashboardSession;
  let admin: DashboardSession;
  let developer: DashboardSession;
  let viewer: DashboardSession;
  let stranger: DashboardSession;
  let checkoutId: string;
  const C = '/api/v1/cp/psp/hosted-pay';

  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    await configureChains(fx.services);
    const world = { app: fx.app, services: fx.services, now: fx.now };
    const m = fx.demo.merchantId;
    owner = await dashboardSession(world, m, 'owner');
    admin = await dashboardSession(world, m, 'admin');
    developer = await dashboardSession(world, m, 'developer');
    viewer = await dashboardSession(world, m, 'viewer');
    stranger = await dashboardSession(world, await fx.createMerchant('Stranger shop'), 'owner');
    const created = await merchantCall(fx, fx.demo, 'POST', C, { amount: '10', currency: 'EUR' });
    checkoutId = resultOf<{ id: string }>(created).id;
  }, 60_000);
  afterAll(() => fx?.close());

  const call = (
    s: DashboardSession | null,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    csrf = true,
  ) =>
    fx.app.inject({
      method,
      url,
      headers: {
        ...(s === null ? {} : s.headers({ csrf })),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  describe('the merchant routes with a session', () => {
    it('summary: any role (checkout:read); the figures of the session merchant', async () => {
      for (const s of [owner, viewer]) {
        const res = await call(s, 'GET', '/api/v1/cp/summary');
        expect(res.statusCode, res.body).toBe(200);
        expect(resultOf<{ balances: unknown[] }>(res).balances.length).toBeGreaterThan(0);
      }
      const theirs = resultOf<{ balances: unknown[] }>(await call(stranger, 'GET', '/api/v1/cp/summary'));
      expect(theirs.balances).toEqual([]);
    });

    it('webhook deliveries: developer yes, viewer 403, another merchant 404', async () => {
      const url = `${C}/${checkoutId}/webhook-deliveries`;
      expect((await call(developer, 'GET', url)).statusCode).toBe(200);
      expectError(await call(viewer, 'GET', url), 403, 'SCOPE_MISSING');
      expectError(await call(stranger, 'GET', url), 404, 'NOT_FOUND');
    });
  });

  describe('/dashboard/api/keys', () => {
    const K = '/dashboard/api/keys';

    it('a developer creates a key (secret once) that signs requests; list never shows secrets', async () => {
      const res = await call(developer, 'POST', K, { label: 'shop server' });
      expect(res.statusCode, res.body).toBe(201);
      const key = resultOf<{ id: string; apiKey: string; apiSecret: string; scopes: string[] }>(res);
      expect(key.apiSecret).toMatch(/^sk_/);
      expect(key.scopes).not.toContain('payouts:write');
      const signed = await merchantCall(
        fx,
        { apiKey: key.apiKey, apiSecret: key.apiSecret, merchantId: fx.demo.merchantId },
        'GET',
        '/api/v1/cp/summary',
      );
      expect(signed.statusCode, signed.body).toBe(200);
      const list = await call(developer, 'GET', `${K}?limit=200`);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.body).not.toContain(key.apiSecret);
      expect(resultOf<{ id: string }[]>(list).some((k) => k.id === key.id)).toBe(true);
    });

    it('a developer may not grant payouts:write (403 SCOPE_MISSING); an admin may', async () => {
      expectError(await call(developer, 'POST', K, { scopes: ['payouts:write'] }), 403, 'SCOPE_MISSING');
      const res = await call(admin, 'POST', K, { scopes: ['payouts:write', 'payouts:read'] });
      expect(res.statusCode, res.body).toBe(201);
    });

    it('roll gives a new secret once; revoke ends the key', async () => {
      const key = resultOf<{ id: string }>(await call(owner, 'POST', K, {}));
      const rolled = await call(owner, 'POST', `${K}/${key.id}/roll`, {});
      expect(rolled.statusCode, rolled.body).toBe(201);
      const fresh = resultOf<{ id: string; apiSecret: string; rotatedFrom: string; previousExpiresAt: string }>(rolled);
      expect(fresh).toMatchObject({ rotatedFrom: key.id });
      expect(fresh.apiSecret).toMatch(/^sk_/);
      expect(fresh.id).not.toBe(key.id);
      const revoked = await call(owner, 'DELETE', `${K}/${fresh.id}`);
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(resultOf<{ status: string }>(revoked).status).toBe('revoked');
    });

    it('viewer: 403 ROLE_FORBIDDEN, even to list; no CSRF token: 403 CSRF_FAILED and no key', async () => {
      expectError(await call(viewer, 'GET', K), 403, 'ROLE_FORBIDDEN');
      expectError(await call(viewer, 'POST', K, {}), 403, 'ROLE_FORBIDDEN');
      const before = (await fx.services.store.db.selectFrom('api_keys').select('id').execute()).length;
      expectError(await call(owner, 'POST', K, { label: 'no csrf' }, false), 403, 'CSRF_FAILED');
      expect((await fx.services.store.db.selectFrom('api_keys').select('id').execute()).length).toBe(before);
    });

    it("another merchant's session: the key is 404 and stays active; no session: 401", async () => {
      const key = resultOf<{ id: string }>(await call(owner, 'POST', K, {}));
      expectError(await call(stranger, 'DELETE', `${K}/${key.id}`), 404, 'NOT_FOUND');
      expectError(await call(stranger, 'POST', `${K}/${key.id}/roll`, {}), 404, 'NOT_FOUND');
      expect((await fx.services.admin.getApiKey(key.id)).status).toBe('active');
      expect(resultOf<{ id: string }[]>(await call(stranger, 'GET', K)).some((k) => k.id === key.id)).toBe(false);
      expectError(await call(null, 'GET', K), 401, 'SESSION_REQUIRED');
      // Signed headers are no way into /dashboard/api.
      expectError(await merchantCall(fx, fx.demo, 'GET', K), 401, 'SESSION_REQUIRED');
    });
  });

  describe('/dashboard/api/settings', () => {
    const S = '/dashboard/api/settings';

    it('any role reads; owner and admin write; viewer and developer 403; no CSRF 403 and unchanged', async () => {
      const read = await call(viewer, 'GET', S);
      expect(read.statusCode, read.body).toBe(200);
      expect(resultOf(read)).toEqual({
        displayName: null,
        logoUrl: null,
        successUrl: null,
        cancelUrl: null,
        legalName: null,
        address: null,
        taxId: null,
        supportEmail: null,
        invoicePrefix: null,
        emailReceipts: true,
        brandColor: null,
        accentColor: null,
        language: null,
      });
      expectError(await call(viewer, 'PATCH', S, { displayName: 'Viewer was here' }), 403, 'ROLE_FORBIDDEN');
      expectError(await call(developer, 'PATCH', S, { displayName: 'Dev was here' }), 403, 'ROLE_FORBIDDEN');
      expectError(await call(admin, 'PATCH', S, { displayName: 'No token' }, false), 403, 'CSRF_FAILED');
      expect(resultOf<{ displayName: null }>(await call(owner, 'GET', S)).displayName).toBeNull();

      const saved = await call(admin, 'PATCH', S, {
        displayName: 'Demo Shop',
        successUrl: 'https://shop.example/ok',
        cancelUrl: '',
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(resultOf(saved)).toMatchObject({
        displayName: 'Demo Shop',
        logoUrl: null,
        successUrl: 'https://shop.example/ok',
        cancelUrl: null,
        supportEmail: null,
      });
      expectError(await call(owner, 'PATCH', S, { logoUrl: 'http://shop.example/logo.png' }), 400, 'INVALID_URL');
      expectError(await call(owner, 'PATCH', S, {}), 400, 'INVALID_BODY');
      // The largest logo fits the route's body limit; the logo's limit, not the body's, refuses more.
      const largest = `data:image/png;base64,${'A'.repeat(60_000 - 22)}`;
      expect((await call(owner, 'PATCH', S, { logoUrl: largest })).statusCode).toBe(200);
      expectError(await call(owner, 'PATCH', S, { logoUrl: `${largest}A` }), 400, 'INVALID_BODY');
      expect((await call(owner, 'PATCH', S, { logoUrl: null })).statusCode).toBe(200);
      // Another merchant's settings are its own.
      expect(resultOf<{ displayName: null }>(await call(stranger, 'GET', S)).displayName).toBeNull();
    });

    it('seller details, invoice prefix and the receipt-mail switch: saved checked, refused with the field named', async () => {
      const saved = await call(owner, 'PATCH', S, {
        legalName: '  Demo Shop GmbH ',
        address: 'Hauptstraße 1\r\n10115 Berlin',
        taxId: 'DE123456789',
        supportEmail: 'Help@Shop.Example',
        invoicePrefix: 'inv-de',
        emailReceipts: false,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(resultOf(saved)).toMatchObject({
        legalName: 'Demo Shop GmbH',
        address: 'Hauptstraße 1\n10115 Berlin',
        taxId: 'DE123456789',
        supportEmail: 'Help@shop.example',
        invoicePrefix: 'INV-DE',
        emailReceipts: false,
      });
      expectError(await call(owner, 'PATCH', S, { supportEmail: 'Help <help@shop.example>' }), 400, 'INVALID_EMAIL');
      expectError(await call(owner, 'PATCH', S, { invoicePrefix: 'INV 2026' }), 400, 'INVALID_BODY');
      expectError(await call(owner, 'PATCH', S, { legalName: 'Shop\nBcc: x' }), 400, 'INVALID_BODY');
      const cleared = await call(owner, 'PATCH', S, { legalName: '', invoicePrefix: null, emailReceipts: true });
      expect(resultOf(cleared)).toMatchObject({ legalName: null, invoicePrefix: null, emailReceipts: true });
    });

    it('a checkout created with the session gets the default successUrl', async () => {
      const res = await call(developer, 'POST', C, { amount: '5', currency: 'EUR' });
      expect(res.statusCode, res.body).toBe(201);
      expect(resultOf<{ successUrl: string | null }>(res).successUrl).toBe('https://shop.example/ok');
    });
  });
});
