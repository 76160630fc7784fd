import { runInContext, createContext, Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestInterceptor } from '../src/http/docs-signing.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { loadSigningV2Vectors } from '../../protocol/test/vectors.js';

/**
 * /docs "Try it out" on the signed endpoints: the signing script is served as a file the page's
 * CSP admits, Swagger UI is configured to call it, and run as a browser would (its own global
 * scope, WebCrypto, fetch reaching this server) it produces requests the server accepts.
 */
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

const get = (url: string) => fx.app.inject({ method: 'GET', url });
const SCRIPT = '/docs/static/theme/hostpay-signing.js';

describe('the docs page loads the signing script', () => {
  it('serves it as JavaScript and references it from the page, after Swagger UI', async () => {
    const page = await get('/docs');
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(scripts.at(-1)).toMatch(/\/static\/theme\/hostpay-signing\.js$/);
    const res = await get(SCRIPT);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    expect(() => new Script(res.body)).not.toThrow();
  });

  it('configures Swagger UI with the interceptor, in a file, valid JavaScript', async () => {
    const init = await get('/docs/static/swagger-initializer.js');
    expect(init.body).toContain('"requestInterceptor":');
    expect(init.body).toContain('hostpaySigning');
    expect(() => new Script(init.body)).not.toThrow();
  });

  it('keeps the CSP: scripts from the server only, no inline script', async () => {
    const csp = String((await get('/docs')).headers['content-security-policy']);
    const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1] ?? '';
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(scriptSrc).not.toContain('unsafe-eval');
    expect(csp).toContain("script-src-attr 'none'");
    expect((await get('/docs')).body).not.toMatch(/<script>|<script [^>]*>[^<\s]/);
  });

  it('never stores the secret: no web storage, cookies or URLs in the script', async () => {
    const body = (await get(SCRIPT)).body;
    for (const sink of ['localStorage', 'sessionStorage', 'indexedDB', 'document.cookie', 'history.', 'location.hash'])
      expect(body).not.toContain(sink);
  });
});

describe('the script signs like a merchant', () => {
  type Req = { url: string; method: string; headers: Record<string, string>; body?: string };
  type Signing = {
    sign(r: Req): Promise<Req>;
    useCredentials(keyId: string, secret: string): void;
    canonicalTarget(target: string): string;
  };
  let page: { hostpaySigning: Signing; interceptor: (r: Req) => Promise<Req> };
  const origin = 'http://127.0.0.1:8080';

  /** fetch as the page has it: same-origin requests reach the app. */
  async function pageFetch(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) {
    const u = new URL(url);
    expect(u.origin).toBe(origin);
    const res = await fx.app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: u.pathname + u.search,
      headers: init.headers ?? {},
      ...(init.body === undefined ? {} : { payload: init.body }),
    });
    return { ok: res.statusCode < 400, status: res.statusCode, json: async () => JSON.parse(res.body) as unknown };
  }
  /** What Swagger UI then sends. */
  const send = (r: Req) =>
    fx.app.inject({
      method: r.method as 'GET',
      url: new URL(r.url).pathname + new URL(r.url).search,
      headers: r.headers,
      ...(r.body === undefined ? {} : { payload: r.body }),
    });

  beforeAll(async () => {
    const context = createContext({
      location: new URL(`${origin}/docs/`),
      crypto: globalThis.crypto,
      TextEncoder,
      URL,
      fetch: pageFetch,
    });
    runInContext((await get(SCRIPT)).body, context);
    const interceptor = runInContext(`(${requestInterceptor.toString()})`, context) as (r: Req) => Promise<Req>;
    page = { hostpaySigning: (context as { hostpaySigning: Signing }).hostpaySigning, interceptor };
  });

  it('leaves requests alone without credentials (the server then says what is missing)', async () => {
    const req = await page.interceptor({ url: `${origin}/api/v1/cp/wallets/`, method: 'GET', headers: {} });
    expect(req.headers).toEqual({});
    expect((await send(req)).statusCode).toBe(401);
  });

  it('signs a merchant GET and fetches the bearer token itself', async () => {
    page.hostpaySigning.useCredentials(fx.demo.apiKey, fx.demo.apiSecret);
    const req = await page.interceptor({
      url: `${origin}/api/v1/cp/psp/hosted-pay/fees-preview?amount=100&currency=USDT`,
      method: 'GET',
      headers: { 'api-key': 'typed-in-authorize' },
    });
    expect(req.headers['api-key']).toBe(fx.demo.apiKey);
    expect(req.headers.authorization).toMatch(/^Bearer \S+$/);
    const res = await send(req);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('signs with version 2, so the routes that refuse version 1 accept it (a query in any order included)', async () => {
    page.hostpaySigning.useCredentials(fx.demo.apiKey, fx.demo.apiSecret);
    const req = await page.interceptor({
      url: `${origin}/api/v1/cp/events?limit=2&type=checkout.created`,
      method: 'GET',
      headers: {},
    });
    expect(req.headers['signature-version']).toBe('2');
    const res = await send(req);
    expect(res.statusCode, res.body).toBe(200);
    const created = await page.interceptor({
      url: `${origin}/api/v1/cp/psp/hosted-pay/chk_doesnotexist/cancel`,
      method: 'POST',
      headers: {},
    });
    // Past authentication: the checkout does not exist.
    expect((await send(created)).statusCode).toBe(404);
  });

  it('computes the canonical target of every v2 vector as the protocol does', () => {
    for (const v of loadSigningV2Vectors())
      expect(page.hostpaySigning.canonicalTarget(v.target), v.name).toBe(v.canonicalTarget);
  });

  it('signs the token request over its body (pretty-printed JSON included)', async () => {
    const body = '{\n  "expiresIn": 600,\n  "scope": ["fees:read"]\n}';
    const req = await page.interceptor({
      url: `${origin}/api/v1/auth/token`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const res = await send(req);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ result: { expiresIn: 600, scope: ['fees:read'] } });
  });

  it('does not touch other requests (the document itself, admin calls)', async () => {
    for (const url of [
      `${origin}/docs/json`,
      `${origin}/admin/v1/merchants`,
      'https://elsewhere.example/api/v1/cp/wallets/',
    ]) {
      expect((await page.interceptor({ url, method: 'GET', headers: {} })).headers).toEqual({});
    }
  });

  it("a wrong secret fails with the server's answer instead of sending unsigned", async () => {
    page.hostpaySigning.useCredentials(fx.demo.apiKey, 'not-the-secret');
    await expect(page.interceptor({ url: `${origin}/api/v1/cp/wallets/`, method: 'GET', headers: {} })).rejects.toThrow(
      /INVALID_SIGNATURE/,
    );
  });
});
