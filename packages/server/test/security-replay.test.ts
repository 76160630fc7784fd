import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { signedHeaders, type Credentials, type Req, type World } from './security/attacks.js';
import { ROUTES } from './security/routes.js';

/**
 * Issue 24 item 1, the routes that answer with a secret: the webhook endpoint create and
 * rotate-secret (the `whsec_` signing secret) and the token endpoint (a bearer token). Every
 * signed merchant request of the route table is captured as a merchant would send it (headers and
 * body, version 2, plus the version-1 requests of the three routes that take it) and replayed
 * unchanged onto each of them: none may reach it. Version 2 signs method, path, query and body, so
 * each replay is INVALID_SIGNATURE; a version-1 capture is SIGNATURE_V2_REQUIRED on the webhook
 * routes. The token endpoint takes version 1 by design (docs/security.md): what a replayed v1
 * capture gets there is checked below to be worth nothing beyond what the capture already gave.
 */
let fx: HttpFixture;
let world: World;
let endpointId: string;
let otherEndpointId: string;
const NONE = { cookie: '', csrf: '' };
beforeAll(async () => {
  // Sandbox: the endpoints point at a closed loopback port (nothing is ever delivered elsewhere).
  fx = await createFixture({ sandbox: true });
  const merchant = await fx.createMerchant('Replay Shop');
  const key = await fx.createKey(merchant);
  const otherKey = await fx.createKey(merchant);
  const v2Key = await fx.createKey(merchant, { requireSignatureV2: true });
  const partial = {
    app: fx.app,
    now: fx.now,
    key,
    otherKey,
    v2Key,
    operatorToken: '',
    consoleSession: { cookie: '', csrf: '' },
    // Replays of signed requests only: no dashboard session is used here.
    dashboard: { owner: NONE, viewer: NONE, half: NONE, enrol: NONE, own: {} },
  };
  const token = await fx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/token',
    headers: signedHeaders({ ...partial, bearer: '', otherBearer: '' }, key, 'POST', '/api/v1/auth/token', ''),
  });
  const bearer = (JSON.parse(token.body) as { result: { accessToken: string } }).result.accessToken;
  world = { ...partial, bearer, otherBearer: '' };
  // Each create its own body: a signed write is accepted once (security-single-use.test.ts).
  const create = async (n: number) => {
    const res = await send(merchantRequest('POST', WEBHOOKS, CREATE_BODY.replace('target', `target ${n}`)));
    expect(res.statusCode, res.body).toBe(201);
    return (JSON.parse(res.body) as { result: { id: string } }).result.id;
  };
  endpointId = await create(1);
  otherEndpointId = await create(2);
});
afterAll(() => fx.close());

const WEBHOOKS = '/api/v1/cp/webhook-endpoints';
const CREATE_BODY = '{"url":"http://127.0.0.1:9/hooks","description":"replay target"}';
const SECRET_IN_ANSWER = /whsec_|accessToken/;

const send = (req: Req): Promise<LightMyRequestResponse> =>
  fx.app.inject({
    method: req.method as 'GET',
    url: req.url,
    headers: req.headers,
    ...(req.payload === undefined ? {} : { payload: req.payload }),
  });

/** A signed merchant request (version 2 unless asked), bearer included, as a merchant's backend sends it. */
function merchantRequest(
  method: string,
  url: string,
  body = '',
  version: 1 | 2 = 2,
  key: Credentials = world.key,
): Req {
  const headers: Record<string, string> = {
    ...signedHeaders(world, key, method, url, body, { version }),
    authorization: `Bearer ${world.bearer}`,
  };
  if (body !== '') headers['content-type'] = 'application/json';
  return { method, url, headers, ...(body === '' ? {} : { payload: body }) };
}

/** Every signed request of the route table, with real ids and a JSON body where the method has one. */
function captures(): { name: string; req: Req }[] {
  const out: { name: string; req: Req }[] = [];
  for (const route of ROUTES.filter((r) => r.side === 'merchant' || r.side === 'token')) {
    const path = route.path.replace('{id}', route.path.startsWith(WEBHOOKS) ? endpointId : 'chk_x');
    const url = route.query === undefined ? path : `${path}?${route.query}`;
    const bodies = route.method === 'GET' || route.method === 'DELETE' ? [''] : ['', CREATE_BODY, '{"expiresIn":600}'];
    for (const body of bodies) {
      out.push({ name: `v2 ${route.method} ${url} ${body}`, req: merchantRequest(route.method, url, body) });
      if (route.signatureV1)
        out.push({ name: `v1 ${route.method} ${url} ${body}`, req: merchantRequest(route.method, url, body, 1) });
    }
  }
  return out;
}

const SECRET_ROUTES = [
  { name: 'POST webhook-endpoints (create)', method: 'POST', url: () => WEBHOOKS },
  { name: 'POST rotate-secret', method: 'POST', url: () => `${WEBHOOKS}/${endpointId}/rotate-secret` },
  {
    name: 'POST rotate-secret of another endpoint than the captures name',
    method: 'POST',
    url: () => `${WEBHOOKS}/${otherEndpointId}/rotate-secret`,
  },
  { name: 'POST /api/v1/auth/token', method: 'POST', url: () => '/api/v1/auth/token' },
] as const;

describe('no replay of another route’s signed request reaches a route that answers with a secret', () => {
  for (const target of SECRET_ROUTES) {
    it(target.name, async () => {
      const url = target.url();
      let replays = 0;
      for (const { name, req } of captures()) {
        if (req.method === target.method && req.url === url) continue; // the route's own request
        const v1 = req.headers['signature-version'] === undefined;
        const bodyLess = (req.payload ?? '') === '';
        // Version 1 signs `<timestamp>.<body>` only: a body-less v1 capture is, by design, a valid
        // body-less token request (below: what that token is worth).
        if (url === '/api/v1/auth/token' && v1 && bodyLess) continue;
        const res = await send({ ...req, method: target.method, url });
        replays++;
        expect(res.statusCode, `${name}: ${res.body}`).toBe(401);
        expect((JSON.parse(res.body) as { error: { code: string } }).error.code, name).toBe(
          v1 && url !== '/api/v1/auth/token' ? 'SIGNATURE_V2_REQUIRED' : 'INVALID_SIGNATURE',
        );
        expect(res.body, name).not.toMatch(SECRET_IN_ANSWER);
      }
      expect(replays).toBeGreaterThan(30);
    });
  }

  it('a version-1 capture replayed on the token endpoint gets a token that opens nothing the capture did not', async () => {
    // The capture: a v1 GET of the wallet list, all four headers.
    const capture = merchantRequest('GET', '/api/v1/cp/wallets/', '', 1);
    const { authorization: _captured, ...keyHeaders } = capture.headers;
    const res = await send({ method: 'POST', url: '/api/v1/auth/token', headers: keyHeaders });
    expect(res.statusCode, res.body).toBe(200);
    const replayedBearer = `Bearer ${(JSON.parse(res.body) as { result: { accessToken: string } }).result.accessToken}`;
    // With the captured signature it still opens only the v1 routes; every other route wants a
    // version-2 signature, which only the secret makes.
    for (const route of ROUTES.filter((r) => r.side === 'merchant')) {
      const path = route.path.replace('{id}', route.path.startsWith(WEBHOOKS) ? endpointId : 'chk_x');
      const url = route.query === undefined ? path : `${path}?${route.query}`;
      const replay = await send({
        method: route.method,
        url,
        headers: { ...keyHeaders, authorization: replayedBearer },
      });
      if (route.signatureV1) expect(replay.statusCode, `${route.method} ${url}`).toBe(200);
      else {
        expect(replay.statusCode, `${route.method} ${url}`).toBe(401);
        expect((JSON.parse(replay.body) as { error: { code: string } }).error.code).toBe('SIGNATURE_V2_REQUIRED');
      }
    }
  });

  it('a key that requires version 2 gets no token from a version-1 capture', async () => {
    const capture = merchantRequest('GET', '/api/v1/cp/wallets/', '', 1, world.v2Key);
    const { authorization: _captured, ...keyHeaders } = capture.headers;
    const res = await send({ method: 'POST', url: '/api/v1/auth/token', headers: keyHeaders });
    expect(res.statusCode, res.body).toBe(401);
    expect(res.body).not.toMatch(SECRET_IN_ANSWER);
  });

  it('the secret routes still answer their own correctly signed request (the checks above are not vacuous)', async () => {
    const rotated = await send(merchantRequest('POST', `${WEBHOOKS}/${endpointId}/rotate-secret`));
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.body).toMatch(/whsec_/);
    const created = await send(merchantRequest('POST', WEBHOOKS, CREATE_BODY.replace('target', 'target 3')));
    expect(created.statusCode, created.body).toBe(201);
  });
});
