import { sign, signV2, unixTimestamp } from '@hostpay/protocol';
import type { FastifyInstance } from 'fastify';
import { concrete, type RouteLine, type Side } from './routes.js';

/**
 * The attack table: each line names an attack, the routes it applies to, how it changes an
 * otherwise valid request, and the answer the server must give. The suite runs every line against
 * every route of routes.ts, and checks on every answer what must always hold (no 5xx, the envelope,
 * x-request-id, no stack trace, no secret echoed).
 */
export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

export interface World {
  app: FastifyInstance;
  now(): number;
  /** A key of the merchant, its bearer token, another key, and a key that requires signature v2. */
  key: Credentials;
  bearer: string;
  otherKey: Credentials;
  otherBearer: string;
  v2Key: Credentials;
  operatorToken: string;
  /** A console session (cookie and CSRF token) for the console's session routes. */
  consoleSession: { cookie: string; csrf: string };
  /**
   * Merchant dashboard sessions of the same merchant as `key`: an owner's (every scope, every
   * role-gated route), a viewer's (reads only), a half session (password given, no TOTP yet), and
   * for each route that ends the session it is called with (`endsSession`) an owner's of its own.
   */
  dashboard: {
    owner: Session;
    viewer: Session;
    half: Session;
    /** A half session awaiting TOTP enrolment (an invitation accepted). */
    enrol: Session;
    own: Record<string, Session>;
  };
}

export interface Session {
  cookie: string;
  csrf: string;
}

export interface Req {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/**
 * Exact status and code; `refused`: any 4xx (authentication never bypassed, nothing served);
 * `accepted`: past authentication (neither 401, 403 nor 429);
 * `any`: only what every answer must satisfy (public routes may ignore what they do not read).
 */
export type Expect = { status: number; code: string } | 'refused' | 'accepted' | 'any';

export interface Attack {
  name: string;
  applies(route: RouteLine): boolean;
  build(valid: Req, world: World, route: RouteLine): Req;
  expect: Expect | ((route: RouteLine) => Expect);
}

const PROTECTED: Side[] = ['merchant', 'token', 'operator', 'dashboard'];
const on =
  (...sides: Side[]) =>
  (route: RouteLine) =>
    sides.includes(route.side);
const withBody = (route: RouteLine) => route.method !== 'GET';
const timestampNow = (world: World) => unixTimestamp(world.now());

/** Signed key headers (version 2 unless asked) for `method url body`. */
export function signedHeaders(
  world: World,
  key: Credentials,
  method: string,
  url: string,
  body: string,
  options: { version?: 1 | 2; timestamp?: string } = {},
): Record<string, string> {
  const timestamp = options.timestamp ?? timestampNow(world);
  if (options.version === 1)
    return { 'api-key': key.apiKey, timestamp, signature: sign(key.apiSecret, timestamp, body) };
  return {
    'api-key': key.apiKey,
    timestamp,
    'signature-version': '2',
    signature: signV2(key.apiSecret, timestamp, method, url, body),
  };
}

/** The request a legitimate caller of `route` sends. */
export function validRequest(world: World, route: RouteLine): Req {
  const url = concrete(route);
  const consoleRoute = route.path === '/console/session';
  const body =
    (route.side === 'operator' || route.side === 'dashboard') && withBody(route)
      ? '{}'
      : consoleRoute && route.method === 'POST'
        ? JSON.stringify({ token: world.operatorToken })
        : '';
  const headers: Record<string, string> = body === '' ? {} : { 'content-type': 'application/json' };
  if (consoleRoute && route.method !== 'POST')
    Object.assign(headers, { cookie: world.consoleSession.cookie, 'x-csrf-token': world.consoleSession.csrf });
  if (route.side === 'operator') headers.authorization = `Bearer ${world.operatorToken}`;
  if (route.halfSession !== undefined) {
    const session = route.halfSession === 'totp' ? world.dashboard.half : world.dashboard.enrol;
    Object.assign(headers, { cookie: session.cookie, 'x-csrf-token': session.csrf });
  }
  if (route.side === 'dashboard') {
    const session = sessionFor(world, route);
    Object.assign(headers, { cookie: session.cookie, 'x-csrf-token': session.csrf });
  }
  if (route.side === 'token' || route.side === 'merchant')
    Object.assign(headers, signedHeaders(world, world.key, route.method, url, body));
  if (route.side === 'merchant') headers.authorization = `Bearer ${world.bearer}`;
  return { method: route.method, url, headers, ...(body === '' ? {} : { payload: body }) };
}

const keyHeaders = (
  req: Req,
  world: World,
  key: Credentials,
  options: { version?: 1 | 2; timestamp?: string } = {},
): Req => ({
  ...req,
  headers: {
    ...without(req, 'signature-version').headers,
    ...signedHeaders(world, key, req.method, req.url, req.payload ?? '', options),
  },
});
const without = (req: Req, ...names: string[]): Req => ({
  ...req,
  headers: Object.fromEntries(Object.entries(req.headers).filter(([n]) => !names.includes(n))),
});
const CREDENTIAL_HEADERS = [
  'api-key',
  'timestamp',
  'signature',
  'signature-version',
  'authorization',
  'cookie',
  'x-csrf-token',
];
const anonymous = (req: Req): Req => without(req, ...CREDENTIAL_HEADERS);
const SESSION_REQUIRED: Expect = { status: 401, code: 'SESSION_REQUIRED' };
/** Nothing that says who is calling: the headers' 401, or on a session-only route the session's. */
const NO_CREDENTIALS = (route: RouteLine): Expect =>
  route.side === 'dashboard' ? SESSION_REQUIRED : { status: 401, code: 'MISSING_HEADER' };

/** The session a dashboard route's legitimate request carries. */
const sessionFor = (world: World, route: RouteLine): Session =>
  route.endsSession ? world.dashboard.own[`${route.method} ${route.path}`]! : world.dashboard.owner;
/** `req` with only this session for credentials (and its CSRF token unless `csrf` says otherwise). */
const withSession = (req: Req, session: Session, csrf: string | null = session.csrf): Req => ({
  ...anonymous(req),
  headers: { ...anonymous(req).headers, cookie: session.cookie, ...(csrf === null ? {} : { 'x-csrf-token': csrf }) },
});
const isWrite = (route: RouteLine) => route.method !== 'GET';
const CSRF_FAILED: Expect = { status: 403, code: 'CSRF_FAILED' };
const INJECTIONS = [
  "' OR '1'='1' --",
  '<script>alert(1)</script>',
  '\u0000',
  '../../../../etc/passwd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell probe, sent as a literal string
  '${jndi:ldap://127.0.0.1/a}',
  '{"$gt":""}',
  '%00%0d%0aSet-Cookie:x=1',
];
const appendQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;
const pathOf = (url: string) => url.split('?')[0]!;
const queryOf = (url: string) => (url.includes('?') ? url.slice(url.indexOf('?')) : '');
const mutatePath = (req: Req, change: (path: string) => string): Req => ({
  ...anonymous(req),
  url: change(pathOf(req.url)) + queryOf(req.url),
});

export const ATTACKS: Attack[] = [
  // --- authentication header permutations: merchant side ----------------------------------
  { name: 'no credentials at all', applies: on(...PROTECTED), build: anonymous, expect: NO_CREDENTIALS },
  {
    name: 'an operator token instead of API-key headers',
    applies: on('merchant', 'token'),
    build: (r, w) => ({
      ...anonymous(r),
      headers: { ...anonymous(r).headers, authorization: `Bearer ${w.operatorToken}` },
    }),
    expect: NO_CREDENTIALS,
  },
  {
    name: 'unknown api-key',
    applies: on('merchant', 'token'),
    build: (r) => ({ ...r, headers: { ...r.headers, 'api-key': 'hp_doesnotexist' } }),
    expect: { status: 401, code: 'UNKNOWN_API_KEY' },
  },
  {
    name: 'api-key of 8 KiB',
    applies: on('merchant', 'token'),
    build: (r) => ({ ...r, headers: { ...r.headers, 'api-key': 'hp_' + 'x'.repeat(8192) } }),
    expect: { status: 401, code: 'UNKNOWN_API_KEY' },
  },
  {
    name: 'SQL in api-key',
    applies: on('merchant', 'token'),
    build: (r) => ({ ...r, headers: { ...r.headers, 'api-key': "hp_x' OR '1'='1" } }),
    expect: { status: 401, code: 'UNKNOWN_API_KEY' },
  },
  {
    name: "signed with another key's secret",
    applies: on('merchant', 'token'),
    build: (r, w) => keyHeaders(r, w, { apiKey: w.key.apiKey, apiSecret: w.otherKey.apiSecret }),
    expect: { status: 401, code: 'INVALID_SIGNATURE' },
  },
  {
    name: 'replay: a version-2 signature made for another route',
    applies: on('merchant', 'token'),
    build: (r, w) => ({ ...r, headers: { ...r.headers, ...signedHeaders(w, w.key, 'GET', '/api/v1/time', '') } }),
    expect: { status: 401, code: 'INVALID_SIGNATURE' },
  },
  {
    name: 'replay: a capture 10 minutes old',
    applies: on('merchant', 'token'),
    build: (r, w) => keyHeaders(r, w, w.key, { timestamp: String(Math.floor(w.now() / 1000) - 600) }),
    expect: { status: 401, code: 'TIMESTAMP_OUT_OF_WINDOW' },
  },
  {
    // Issue 24 item 1: `<timestamp>.` signs every body-less request alike, so a captured v1 GET
    // would pass on every body-less POST and DELETE (rotate a webhook secret, delete an endpoint).
    name: 'a correct version-1 signature (as a capture of a body-less v1 GET /api/v1/cp/wallets/ replayed)',
    applies: on('merchant', 'token'),
    build: (r, w) => keyHeaders(r, w, w.key, { version: 1 }),
    expect: (route) => (route.signatureV1 ? 'accepted' : { status: 401, code: 'SIGNATURE_V2_REQUIRED' }),
  },
  {
    name: 'replay: a version-2 signature made for another method',
    applies: on('merchant', 'token'),
    build: (r, w) => ({
      ...r,
      headers: {
        ...r.headers,
        ...signedHeaders(w, w.key, r.method === 'GET' ? 'POST' : 'GET', r.url, r.payload ?? ''),
      },
    }),
    expect: { status: 401, code: 'INVALID_SIGNATURE' },
  },
  {
    name: 'replay: a version-2 signature made for another id',
    applies: (route) => on('merchant')(route) && route.path.includes('{id}'),
    build: (r, w) => ({
      ...r,
      headers: { ...r.headers, ...signedHeaders(w, w.key, r.method, r.url.replace('id_x', 'id_y'), r.payload ?? '') },
    }),
    expect: { status: 401, code: 'INVALID_SIGNATURE' },
  },
  {
    name: 'replay: a version-2 signature made for another query',
    applies: on('merchant', 'token'),
    build: (r, w) => ({
      ...r,
      headers: { ...r.headers, ...signedHeaders(w, w.key, r.method, appendQuery(r.url, 'limit=1'), r.payload ?? '') },
    }),
    expect: { status: 401, code: 'INVALID_SIGNATURE' },
  },
  {
    name: 'replay: a version-2 signature made over another body',
    applies: (route) => on('merchant', 'token')(route) && withBody(route),
    build: (r, w) => ({
      ...r,
      payload: '{"expiresIn":600}',
      headers: { ...r.headers, 'content-type': 'application/json', ...signedHeaders(w, w.key, r.method, r.url, '{}') },
    }),
    expect: { status: 401, code: 'INVALID_SIGNATURE' },
  },
  {
    name: 'a version-1 signature for a key that requires version 2',
    applies: on('merchant', 'token'),
    build: (r, w) => keyHeaders(r, w, w.v2Key, { version: 1 }),
    expect: { status: 401, code: 'SIGNATURE_V2_REQUIRED' },
  },
  {
    name: 'timestamp in milliseconds',
    applies: on('merchant', 'token'),
    build: (r, w) => keyHeaders(r, w, w.key, { timestamp: String(w.now()) }),
    expect: { status: 401, code: 'INVALID_TIMESTAMP' },
  },
  {
    name: 'signature-version 3',
    applies: on('merchant', 'token'),
    build: (r) => ({ ...r, headers: { ...r.headers, 'signature-version': '3' } }),
    expect: { status: 401, code: 'INVALID_SIGNATURE' },
  },
  { name: 'no bearer', applies: on('merchant'), build: (r) => without(r, 'authorization'), expect: NO_CREDENTIALS },
  {
    name: 'the bearer of another key',
    applies: on('merchant'),
    build: (r, w) => ({ ...r, headers: { ...r.headers, authorization: `Bearer ${w.otherBearer}` } }),
    expect: { status: 403, code: 'TOKEN_KEY_MISMATCH' },
  },
  {
    name: 'an unsigned (alg none) bearer',
    applies: on('merchant'),
    build: (r, w) => ({
      ...r,
      headers: { ...r.headers, authorization: `Bearer ${w.bearer.split('.').slice(0, 2).join('.')}.` },
    }),
    expect: { status: 401, code: 'INVALID_TOKEN' },
  },
  // --- authentication header permutations: operator side ----------------------------------
  {
    name: 'merchant credentials (signed headers and merchant bearer)',
    applies: on('operator'),
    build: (r, w) => ({
      ...r,
      headers: {
        ...r.headers,
        ...signedHeaders(w, w.key, r.method, r.url, r.payload ?? ''),
        authorization: `Bearer ${w.bearer}`,
      },
    }),
    expect: { status: 401, code: 'INVALID_TOKEN' },
  },
  {
    name: 'operator token with its last character changed',
    applies: on('operator'),
    build: (r, w) => ({
      ...r,
      headers: {
        ...r.headers,
        authorization: `Bearer ${w.operatorToken.slice(0, -1)}${w.operatorToken.endsWith('0') ? '1' : '0'}`,
      },
    }),
    expect: { status: 401, code: 'INVALID_TOKEN' },
  },
  {
    name: 'operator token of 8 KiB',
    applies: on('operator'),
    build: (r) => ({ ...r, headers: { ...r.headers, authorization: `Bearer ${'a'.repeat(8192)}` } }),
    expect: { status: 401, code: 'INVALID_TOKEN' },
  },
  {
    name: 'operator token with the Basic scheme',
    applies: on('operator'),
    build: (r, w) => ({
      ...r,
      headers: { ...r.headers, authorization: `Basic ${Buffer.from(`admin:${w.operatorToken}`).toString('base64')}` },
    }),
    expect: { status: 401, code: 'INVALID_TOKEN' },
  },
  {
    name: 'operator token in the query string instead of the header',
    applies: on('operator'),
    build: (r, w) => ({ ...anonymous(r), url: appendQuery(r.url, `token=${w.operatorToken}`) }),
    expect: NO_CREDENTIALS,
  },
  // --- path tricks, without credentials: never served, never a way around authentication ---
  {
    name: 'path with a doubled leading slash',
    applies: on(...PROTECTED),
    build: (r) => mutatePath(r, (p) => '/' + p),
    expect: 'refused',
  },
  {
    name: 'path with /./ inside',
    applies: on(...PROTECTED),
    build: (r) => mutatePath(r, (p) => p.replace(/^\/([^/]+)\//, '/$1/./')),
    expect: 'refused',
  },
  {
    name: 'path with ../ climbing back',
    applies: on(...PROTECTED),
    build: (r) => mutatePath(r, (p) => p.replace(/^\/([^/]+)\//, '/$1/x/../')),
    expect: 'refused',
  },
  {
    name: 'path in upper case',
    applies: on(...PROTECTED),
    build: (r) => mutatePath(r, (p) => p.toUpperCase()),
    expect: 'refused',
  },
  {
    name: 'path with ;param on the last segment',
    applies: on(...PROTECTED),
    build: (r) => mutatePath(r, (p) => `${p};jsessionid=1`),
    expect: 'refused',
  },
  {
    name: 'path with percent-encoded characters',
    applies: on(...PROTECTED),
    build: (r) => mutatePath(r, (p) => p.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)),
    expect: 'refused',
  },
  {
    name: 'path with %2F for a slash',
    applies: on(...PROTECTED),
    build: (r) => mutatePath(r, (p) => p.replace(/\/([^/]*)$/, '%2F$1')),
    expect: 'refused',
  },
  // --- method tricks -------------------------------------------------------------------------
  {
    name: 'X-HTTP-Method-Override and friends are ignored',
    applies: on(...PROTECTED),
    build: (r) => ({
      ...anonymous(r),
      headers: {
        ...anonymous(r).headers,
        'x-http-method-override': 'GET',
        'x-http-method': 'GET',
        'x-method-override': 'GET',
      },
    }),
    expect: NO_CREDENTIALS,
  },
  { name: 'TRACE', applies: () => true, build: (r) => ({ ...anonymous(r), method: 'TRACE' }), expect: 'refused' },
  {
    name: 'OPTIONS (no CORS preflight answered)',
    applies: () => true,
    build: (r) => ({ ...anonymous(r), method: 'OPTIONS' }),
    expect: 'refused',
  },
  {
    name: 'HEAD without credentials',
    applies: (route) => route.method === 'GET' && route.side !== 'public',
    build: (r) => ({ ...anonymous(r), method: 'HEAD' }),
    expect: NO_CREDENTIALS,
  },
  // --- the second way in: a dashboard session on merchant routes, and session-only routes ----
  {
    name: "a dashboard owner's session instead of the signed headers",
    applies: on('merchant'),
    build: (r, w) => withSession(r, w.dashboard.owner),
    expect: 'accepted',
  },
  {
    name: 'a dashboard session write without x-csrf-token',
    applies: (route) => on('merchant', 'dashboard')(route) && isWrite(route),
    // The owner's session even on sign-out: refused, it stays signed in for the other lines.
    build: (r, w) => withSession(r, w.dashboard.owner, null),
    expect: CSRF_FAILED,
  },
  {
    name: "a dashboard session write with another session's CSRF token",
    applies: (route) => on('merchant', 'dashboard')(route) && isWrite(route),
    build: (r, w) => withSession(r, w.dashboard.owner, w.dashboard.viewer.csrf),
    expect: CSRF_FAILED,
  },
  {
    name: "a dashboard session write with the console's CSRF token",
    applies: (route) => on('merchant', 'dashboard')(route) && isWrite(route),
    build: (r, w) => withSession(r, w.dashboard.owner, w.consoleSession.csrf),
    expect: CSRF_FAILED,
  },
  {
    name: "a viewer's session on a write (the page hides the button; the server refuses)",
    applies: (route) =>
      (on('merchant')(route) && isWrite(route)) ||
      (on('dashboard')(route) && route.roles !== undefined && !route.roles.includes('viewer')),
    build: (r, w) => withSession(r, w.dashboard.viewer),
    expect: (route) =>
      route.side === 'merchant' ? { status: 403, code: 'SCOPE_MISSING' } : { status: 403, code: 'ROLE_FORBIDDEN' },
  },
  {
    name: 'a half session (password given, no TOTP yet)',
    applies: on('merchant', 'dashboard'),
    build: (r, w) => withSession(r, w.dashboard.half),
    expect: SESSION_REQUIRED,
  },
  {
    name: 'a made-up session cookie',
    applies: on('merchant', 'dashboard'),
    build: (r, w) => withSession(r, { cookie: `hp_session=${'A'.repeat(43)}`, csrf: w.dashboard.owner.csrf }),
    expect: SESSION_REQUIRED,
  },
  {
    name: 'the session id under the __Host- name over plain http (not read)',
    applies: on('merchant', 'dashboard'),
    build: (r, w) => withSession(r, { cookie: `__Host-${w.dashboard.owner.cookie}`, csrf: w.dashboard.owner.csrf }),
    expect: NO_CREDENTIALS,
  },
  {
    name: "the console's session cookie",
    applies: on('merchant', 'dashboard'),
    build: (r, w) => withSession(r, w.consoleSession),
    expect: NO_CREDENTIALS,
  },
  {
    name: "signed headers with a viewer's session cookie beside them: judged by the headers alone",
    applies: on('merchant'),
    build: (r, w) => ({ ...r, headers: { ...r.headers, cookie: w.dashboard.viewer.cookie } }),
    expect: 'accepted',
  },
  {
    name: 'a dashboard session asking for another merchant (merchantId=)',
    applies: on('merchant'),
    build: (r, w) => withSession({ ...r, url: appendQuery(r.url, 'merchantId=mer_someoneelse') }, w.dashboard.owner),
    expect: 'refused',
  },
  {
    name: 'signed API-key headers on a session-only route',
    applies: on('dashboard'),
    build: (r, w) => ({
      ...anonymous(r),
      headers: {
        ...anonymous(r).headers,
        ...signedHeaders(w, w.key, r.method, r.url, r.payload ?? ''),
        authorization: `Bearer ${w.bearer}`,
      },
    }),
    expect: SESSION_REQUIRED,
  },
  {
    name: 'an operator token on a session-only route',
    applies: on('dashboard'),
    build: (r, w) => ({
      ...anonymous(r),
      headers: { ...anonymous(r).headers, authorization: `Bearer ${w.operatorToken}` },
    }),
    expect: SESSION_REQUIRED,
  },
  // --- injection strings and oversize input, with valid credentials -------------------------
  ...INJECTIONS.map(
    (text): Attack => ({
      name: `injection in the query: ${JSON.stringify(text)}`,
      applies: () => true,
      build: (r, w, route) => {
        const url = appendQuery(r.url, `merchantId=${encodeURIComponent(text)}`);
        return route.side === 'merchant' || route.side === 'token'
          ? keyHeaders({ ...r, url }, w, w.key)
          : { ...r, url };
      },
      // A merchant's merchantId must name a merchant it may act for; elsewhere the value is data
      // (bound as a parameter, or ignored), so only the invariants hold.
      expect: (route) => (route.side === 'merchant' ? 'refused' : 'any'),
    }),
  ),
  ...INJECTIONS.map(
    (text): Attack => ({
      name: `injection in a path parameter: ${JSON.stringify(text)}`,
      applies: (route) => route.path.includes('{id}'),
      build: (r) => ({ ...r, url: r.url.replace('id_x', encodeURIComponent(text)) }),
      expect: 'refused',
    }),
  ),
  {
    name: 'a 64 KiB body',
    applies: withBody,
    build: (r, w, route) => {
      const payload = JSON.stringify({ name: 'x'.repeat(64 * 1024) });
      const req = { ...r, payload, headers: { ...r.headers, 'content-type': 'application/json' } };
      return route.side === 'token' ? keyHeaders(req, w, w.key) : req;
    },
    expect: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
  },
];
