import { SETTINGS_LANGUAGES } from '@hostpay/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LANG_CODES } from '../../src/i18n/languages.js';
import { resultOf } from '../http-helpers/checkouts.js';
import { dashboardSession, type DashboardSession } from '../http-helpers/dashboard-session.js';
import { createFixture, type HttpFixture, type TestKey } from '../http-helpers/fixture.js';
import { expectError } from '../http-helpers/requests.js';
import { merchantCall } from '../http-helpers/webhooks.js';
import { describeStores } from '../helpers.js';

/**
 * The page colours and the default language, through both ways in: the dashboard's settings route
 * (session) and GET/PATCH /api/v1/cp/settings (signed key, scopes checkout:read / checkout:write).
 * Colours are normalised, refused below WCAG AA with the ratio and a shade that passes; the
 * language is one of the eleven; the cached look of the public pages follows each change at once.
 */
describeStores('brand colours and default language', (dialect) => {
  let fx: HttpFixture;
  let owner: DashboardSession;
  let developer: DashboardSession;
  let reader: TestKey;
  const S = '/api/v1/cp/settings';
  const D = '/dashboard/api/settings';

  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    const world = { app: fx.app, services: fx.services, now: fx.now };
    owner = await dashboardSession(world, fx.demo.merchantId, 'owner');
    developer = await dashboardSession(world, fx.demo.merchantId, 'developer');
    reader = await fx.createKey(fx.demo.merchantId, { scopes: ['checkout:read'] });
  }, 60_000);
  afterAll(() => fx?.close());

  const dash = (s: DashboardSession, method: 'GET' | 'PATCH', body?: unknown) =>
    fx.app.inject({
      method,
      url: D,
      headers: { ...s.headers({ csrf: true }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const api = (method: 'GET' | 'PATCH', body?: unknown, key = fx.demo) => merchantCall(fx, key, method, S, body);
  const look = () => fx.services.merchantLook(fx.demo.merchantId);

  it('the protocol lists the server languages', () => {
    expect([...SETTINGS_LANGUAGES]).toEqual([...LANG_CODES]);
  });

  it('the dashboard saves colours normalised to lowercase #rrggbb and a language; null clears', async () => {
    expect(await look()).toEqual({ language: null, brandColor: null, accentColor: null });
    const saved = await dash(owner, 'PATCH', { brandColor: '#0B57D0', accentColor: '#036', language: 'de' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(resultOf(saved)).toMatchObject({ brandColor: '#0b57d0', accentColor: '#003366', language: 'de' });
    // The cached look follows the change at once.
    expect(await look()).toEqual({ language: 'de', brandColor: '#0b57d0', accentColor: '#003366' });
    const cleared = await dash(owner, 'PATCH', { brandColor: null, accentColor: '', language: null });
    expect(resultOf(cleared)).toMatchObject({ brandColor: null, accentColor: null, language: null });
    expect(await look()).toEqual({ language: null, brandColor: null, accentColor: null });
  });

  it('refuses a colour below 4.5:1 with the measured ratio and the nearest passing shade', async () => {
    const res = await dash(owner, 'PATCH', { brandColor: '#FFD700' });
    const body = expectError(res, 400, 'INVALID_BODY');
    expect(body.message).toMatch(
      /^brandColor #ffd700 has contrast 1\.40:1 with white text; WCAG AA needs 4\.5:1: try #[0-9a-f]{6}$/,
    );
    const shade = body.message.slice(-7);
    expect((await dash(owner, 'PATCH', { brandColor: shade })).statusCode).toBe(200);
    const accent = expectError(await api('PATCH', { accentColor: '#7a7a7a' }), 400, 'INVALID_BODY');
    expect(accent.message).toMatch(
      /^accentColor #7a7a7a has contrast \d\.\d\d:1 as link text on the page's light background #[0-9a-f]{6}; WCAG AA needs 4\.5:1: try #[0-9a-f]{6}$/,
    );
    for (const bad of ['red', '#12', '#abcd', 'rgb(0,0,0)', '#0b57d0 '.repeat(2)])
      expectError(await dash(owner, 'PATCH', { brandColor: bad }), 400, 'INVALID_BODY');
  });

  it('a language must be one of the eleven, and the message lists them', async () => {
    const body = expectError(await dash(owner, 'PATCH', { language: 'pt' }), 400, 'INVALID_BODY');
    expect(body.message).toBe(`language must be one of ${LANG_CODES.join(', ')}, or null`);
    expectError(await api('PATCH', { language: 'xx' }), 400, 'INVALID_BODY');
    expect(resultOf(await api('PATCH', { language: 'pt-BR' }))).toMatchObject({ language: 'pt-BR' });
  });

  it('the API reads and writes the same settings; the key is the audit actor; checkout:write needed', async () => {
    const saved = await api('PATCH', { accentColor: '#1a1a7a', displayName: 'Brand shop' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(resultOf(saved)).toMatchObject({ accentColor: '#1a1a7a', displayName: 'Brand shop' });
    expect(resultOf(await dash(developer, 'GET'))).toMatchObject({ accentColor: '#1a1a7a' });
    expect(resultOf(await api('GET', undefined, reader))).toMatchObject({ accentColor: '#1a1a7a' });
    expectError(await api('PATCH', { accentColor: null }, reader), 403, 'SCOPE_MISSING');
    const audit = await fx.services.store.db
      .selectFrom('audit_log')
      .select(['operator'])
      .where('action', '=', 'merchant.settings.update')
      .orderBy('at', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.operator).toMatch(/^key:/);
    expectError(await api('PATCH', {}), 400, 'INVALID_BODY');
    expectError(await api('PATCH', { brandColour: '#000000' }), 400, 'INVALID_BODY');
  });

  it('a session reaches the API routes with its own role rules: a developer may read, not write', async () => {
    const headers = (s: DashboardSession) => ({ ...s.headers({ csrf: true }), 'content-type': 'application/json' });
    const read = await fx.app.inject({ method: 'GET', url: S, headers: developer.headers({ csrf: true }) });
    expect(read.statusCode, read.body).toBe(200);
    const payload = JSON.stringify({ language: 'fr' });
    expectError(
      await fx.app.inject({ method: 'PATCH', url: S, headers: headers(developer), payload }),
      403,
      'ROLE_FORBIDDEN',
    );
    const ok = await fx.app.inject({ method: 'PATCH', url: S, headers: headers(owner), payload });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await look()).language).toBe('fr');
  });
});
