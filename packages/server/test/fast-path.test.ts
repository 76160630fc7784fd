import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { connectRedis } from '../src/cluster/redis.js';
import { RedisRateLimiter } from '../src/cluster/redis-rate-limiter.js';
import { encodedBodies, fastPathAnswers } from '../src/http/fast-path.js';
import { dropRedisKeys, redisAvailable, redisReady, TEST_REDIS_URL } from './helpers.js';
import { createFixture, type HttpFixture, type TestKey } from './http-helpers/fixture.js';
import { issueToken, merchantHeaders } from './http-helpers/requests.js';

/**
 * The fast path in front of Fastify (http/fast-path.ts) over a real socket (`app.inject` does not
 * go through it): a request repeating accepted credentials gets, before Fastify, exactly what
 * Fastify would answer (status, header names, order and values, body), the same count in
 * /metrics and the same access line; every refusal still comes from Fastify.
 */
let fx: HttpFixture;
let app: FastifyInstance;
let base: string;
const lines: Record<string, unknown>[] = [];
const agent = new Agent({ keepAlive: true });
beforeAll(async () => {
  fx = await createFixture();
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n'))
        if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  app = await fx.buildApp({ logger: { level: 'info', stream } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  agent.destroy();
  await fx.close();
});

interface Answer {
  status: number;
  /** Header names and values in wire order, without Date. */
  headers: [string, string][];
  body: string;
}

function get(path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(path.startsWith('http') ? path : base + path, { headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          if (res.rawHeaders[i] !== 'Date') pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode!, headers: pairs, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The answer with the values that differ by design (request id, remaining count) blanked. */
const shape = (a: Answer) => ({
  ...a,
  headers: a.headers.map(([n, v]) => [n, n === 'x-request-id' || n === 'ratelimit-remaining' ? '*' : v]),
});
const header = (a: Answer, name: string) => a.headers.find(([n]) => n === name)?.[1];
const code = (a: Answer) => (JSON.parse(a.body) as { error: { code: string } }).error.code;

/** All four headers, the token issued by this app (so its rate limiter counted that request). */
const headersFor = async (key: TestKey) => merchantHeaders(fx, key, await issueToken(fx, key, '', app));

const WALLETS = '/api/v1/cp/wallets/';
const FEES = '/api/v1/cp/psp/hosted-pay/fees-preview?amount=100&currency=USDT';

describe('fast path: repeated cached GETs answered before Fastify, byte for byte as Fastify would', () => {
  for (const [path, other] of [
    [WALLETS, `${WALLETS}?merchantId=`],
    ['/api/v1/cp/wallets', '/api/v1/cp/wallets?merchantId='],
    [FEES, `${FEES}&merchantId=`],
  ] as const) {
    it(`${path}: same status, headers (names, order, values) and body on both paths`, async () => {
      const key = await fx.createKey(fx.demo.merchantId, { rateLimitPerMinute: 100 });
      const headers = await headersFor(key);
      const first = await get(path, headers); // verifies the credentials: Fastify
      const before = fastPathAnswers(app);
      const repeats = [await get(path, headers), await get(path, headers)];
      expect(fastPathAnswers(app) - before).toBe(2);
      // The same request naming the key's own merchant is Fastify's (the fast path takes no query parameter but the fee's two).
      const viaFastify = await get(other + fx.demo.merchantId, headers);
      expect(fastPathAnswers(app) - before).toBe(2);
      expect(first.status, first.body).toBe(200);
      for (const a of [...repeats, viaFastify]) expect(shape(a)).toEqual(shape(first));
      // Signed with version 1 (merchantHeaders): the deprecation headers on both paths.
      expect(first.headers.map(([n]) => n)).toEqual([
        'x-request-id',
        'cache-control',
        'deprecation',
        'sunset',
        'link',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
        'content-type',
        'content-length',
        'Connection',
        'Keep-Alive',
      ]);
      // Counted in order across both paths (the token request was the first of 100).
      expect([first, ...repeats, viaFastify].map((a) => header(a, 'ratelimit-remaining'))).toEqual([
        '98',
        '97',
        '96',
        '95',
      ]);
      expect(new Set([first, ...repeats, viaFastify].map((a) => header(a, 'x-request-id'))).size).toBe(4);
    });
  }

  it("the fee preview takes its two parameters in either order; anything else is Fastify's", async () => {
    const key = await fx.createKey(fx.demo.merchantId);
    const headers = await headersFor(key);
    const base = await get(FEES, headers);
    const before = fastPathAnswers(app);
    expect(shape(await get('/api/v1/cp/psp/hosted-pay/fees-preview?currency=USDT&amount=100', headers))).toEqual(
      shape(await get(FEES, headers)),
    );
    expect(fastPathAnswers(app) - before).toBe(2);
    for (const query of ['amount=100&currency=usdt', 'amount=100.0&currency=USDT'])
      expect((await get(`/api/v1/cp/psp/hosted-pay/fees-preview?${query}`, headers)).status).toBe(200);
    expect(fastPathAnswers(app) - before).toBe(4);
    // Percent-encoding, repeats, extra or missing parameters, bad amounts: Fastify's answers.
    const cases: [string, number, string?][] = [
      ['amount=1%30%30&currency=USDT', 200],
      ['amount=100&amount=100&currency=USDT', 400, 'INVALID_QUERY'],
      ['amount=100&currency=USDT&x=1', 400, 'INVALID_QUERY'],
      ['amount=100', 400],
      ['amount=0&currency=USDT', 400, 'INVALID_AMOUNT'],
      ['amount=-1&currency=USDT', 400, 'INVALID_AMOUNT'],
      ['amount=100&currency=NOPE', 422, 'UNSUPPORTED_CURRENCY'],
    ];
    for (const [query, status, errorCode] of cases) {
      const a = await get(`/api/v1/cp/psp/hosted-pay/fees-preview?${query}`, headers);
      expect(a.status, `${query}: ${a.body}`).toBe(status);
      if (errorCode !== undefined) expect(code(a)).toBe(errorCode);
    }
    expect(fastPathAnswers(app) - before).toBe(4);
    expect(base.status).toBe(200);
  });

  it('refusals come from Fastify: revoked key, missing scope, rate limit, stale timestamp', async () => {
    const revoked = await fx.createKey(fx.demo.merchantId);
    const h1 = await headersFor(revoked);
    expect((await get(WALLETS, h1)).status).toBe(200);
    expect((await get(WALLETS, h1)).status).toBe(200);
    await fx.revokeKey(revoked.apiKey);
    const before = fastPathAnswers(app);
    const refused = await get(WALLETS, h1);
    expect(refused.status).toBe(403);
    expect(code(refused)).toBe('KEY_REVOKED');

    const narrow = await fx.createKey(fx.demo.merchantId, { scopes: ['wallets:read'] });
    const h2 = await headersFor(narrow);
    expect((await get(WALLETS, h2)).status).toBe(200);
    expect(code(await get(FEES, h2))).toBe('SCOPE_MISSING');
    expect(code(await get(FEES, h2))).toBe('SCOPE_MISSING');

    const limited = await fx.createKey(fx.demo.merchantId, { rateLimitPerMinute: 4 });
    const h3 = await headersFor(limited); // 1 of 4
    expect((await get(WALLETS, h3)).status).toBe(200); // 2
    expect((await get(WALLETS, h3)).status).toBe(200); // 3, fast
    expect((await get(WALLETS, h3)).status).toBe(200); // 4, fast
    const over = await get(WALLETS, h3);
    expect(over.status).toBe(429);
    expect(code(over)).toBe('RATE_LIMITED');
    expect(header(over, 'ratelimit-remaining')).toBe('0');
    expect(Number(header(over, 'retry-after'))).toBeGreaterThan(0);

    const stale = await fx.createKey(fx.demo.merchantId);
    const h4 = await headersFor(stale);
    expect((await get(WALLETS, h4)).status).toBe(200);
    fx.clock.offsetMs = (fx.config.timestampToleranceSeconds + 5) * 1000;
    try {
      expect(code(await get(WALLETS, h4))).toBe('TIMESTAMP_OUT_OF_WINDOW');
    } finally {
      fx.clock.offsetMs = 0;
    }
    // Only the 2 within-limit repeats of the limited key took the fast path.
    expect(fastPathAnswers(app) - before).toBe(2);
  });

  it('a bearer for another key, a changed signature or Authorization is not a repeat', async () => {
    const key = await fx.createKey(fx.demo.merchantId);
    const other = await fx.createKey(fx.demo.merchantId);
    const headers = await headersFor(key);
    expect((await get(WALLETS, headers)).status).toBe(200);
    const before = fastPathAnswers(app);
    expect(
      code(await get(WALLETS, { ...headers, authorization: `Bearer ${await issueToken(fx, other, '', app)}` })),
    ).toBe('TOKEN_KEY_MISMATCH');
    expect(code(await get(WALLETS, { ...headers, signature: '0'.repeat(64) }))).toBe('INVALID_SIGNATURE');
    const { authorization: _, ...noBearer } = headers;
    expect(code(await get(WALLETS, noBearer))).toBe('MISSING_HEADER');
    expect(fastPathAnswers(app) - before).toBe(0);
  });

  it("compression stays Fastify's (the memo hook): a list above 1 KB asked with gzip comes back gzipped", async () => {
    const key = await fx.createKey(fx.demo.merchantId);
    const headers = await headersFor(key);
    expect((await get(WALLETS, headers)).status).toBe(200);
    const before = fastPathAnswers(app);
    const gz = await get(WALLETS, { ...headers, 'accept-encoding': 'gzip' });
    expect(header(gz, 'content-encoding')).toBe('gzip');
    expect(fastPathAnswers(app) - before).toBe(0);
  });

  it("a request without Host is refused by Fastify's hook, as before", async () => {
    const key = await fx.createKey(fx.demo.merchantId);
    const headers = await headersFor(key);
    expect((await get(WALLETS, headers)).status).toBe(200);
    const port = (app.server.address() as { port: number }).port;
    const lines = Object.entries(headers)
      .map(([n, v]) => `${n}: ${v}\r\n`)
      .join('');
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port });
      let seen = '';
      socket.on('data', (c: Buffer) => (seen += c.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve(seen));
      socket.end(`GET ${WALLETS} HTTP/1.1\r\n${lines}Connection: close\r\n\r\n`);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"MALFORMED_REQUEST"');
  });

  it('counts and access lines: the same on both paths', async () => {
    const key = await fx.createKey(fx.demo.merchantId);
    const headers = await headersFor(key);
    const metric = async () => {
      const text = await app.hostpayMetrics.text();
      return Number(
        /hostpay_http_requests_total\{route="\/api\/v1\/cp\/wallets\/",method="GET",status="200"\} (\d+)/.exec(
          text,
        )?.[1] ?? 0,
      );
    };
    const count = await metric();
    lines.length = 0;
    const first = await get(WALLETS, headers); // Fastify
    const before = fastPathAnswers(app);
    const second = await get(WALLETS, headers); // fast path
    expect(fastPathAnswers(app) - before).toBe(1);
    expect(await metric()).toBe(count + 2);
    const access = lines.filter((l) => l.msg === 'request completed' && l.url === WALLETS);
    expect(access).toHaveLength(2);
    const keys = (l: Record<string, unknown>) => Object.keys(l);
    expect(keys(access[1]!)).toEqual(keys(access[0]!));
    expect(access.map((l) => l.reqId)).toEqual([header(first, 'x-request-id'), header(second, 'x-request-id')]);
    for (const l of access)
      expect(l).toMatchObject({ level: 30, method: 'GET', statusCode: 200, msg: 'request completed' });
    // Nothing of the credentials in the lines.
    expect(JSON.stringify(access)).not.toContain(headers.signature);
  });

  it("the encoded-answer memo gives the text's UTF-8 bytes and stays within its bound", () => {
    const bytesOf = encodedBodies(10);
    const a = '{"a":"é"}'; // 10 bytes
    expect(bytesOf(a).equals(Buffer.from(a))).toBe(true);
    expect(bytesOf(a)).toBe(bytesOf(a)); // kept
    const b = '{"b":1}';
    expect(bytesOf(b).toString()).toBe(b); // over the bound: the memo was emptied first
    expect(bytesOf(b)).toBe(bytesOf(b));
    const big = 'x'.repeat(11);
    expect(bytesOf(big).toString()).toBe(big); // larger than the bound: answered, not kept
    expect(bytesOf(big)).not.toBe(bytesOf(big));
  });
});

describe.runIf(redisAvailable)('fast path with a shared (Redis) rate limiter', () => {
  it('counts in Redis; over the limit its 429 is the one Fastify writes (same headers, same body but the id)', async () => {
    const prefix = `hp_test_${randomBytes(4).toString('hex')}:`;
    const redis = connectRedis(TEST_REDIS_URL, () => undefined);
    // Until Redis is ready the limiter counts in-process (its outage fallback): every count here must be Redis's.
    await redisReady(redis);
    const shared = await fx.buildApp({ rateLimiter: new RedisRateLimiter(redis, () => undefined, prefix) });
    try {
      await shared.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(shared.server.address() as { port: number }).port}`;
      const key = await fx.createKey(fx.demo.merchantId, { rateLimitPerMinute: 5 });
      const headers = await merchantHeaders(fx, key, await issueToken(fx, key, '', shared)); // 1 of 5
      const at = (path: string) => get(url + path, headers);
      const answers = [await at(WALLETS), await at(WALLETS), await at(WALLETS)]; // 2 (Fastify), 3 and 4 (fast)
      expect(fastPathAnswers(shared)).toBe(2);
      expect(answers.map((a) => header(a, 'ratelimit-remaining'))).toEqual(['3', '2', '1']);
      expect(shape(answers[2]!)).toEqual(shape(answers[0]!));
      expect((await at(WALLETS)).status).toBe(200); // 5
      const fast429 = await at(WALLETS); // 6: counted in Redis by the fast path, refused there
      expect(fastPathAnswers(shared)).toBe(4);
      const hook429 = await at(`${WALLETS}?merchantId=${fx.demo.merchantId}`); // 7: Fastify's refusal
      expect(fastPathAnswers(shared)).toBe(4);
      for (const a of [fast429, hook429]) {
        expect(a.status).toBe(429);
        expect(code(a)).toBe('RATE_LIMITED');
      }
      const blank = (a: Answer) => ({
        ...shape(a),
        headers: shape(a).headers.filter(([n]) => n !== 'content-length' && n !== 'ratelimit-reset'),
        body: a.body.replace(/"requestId":"[^"]+"/, ''),
      });
      expect(blank(fast429)).toEqual(blank(hook429));
      expect(fast429.headers.map(([n]) => n)).toEqual(hook429.headers.map(([n]) => n));
    } finally {
      await shared.close();
      await dropRedisKeys(redis, prefix);
    }
  });
});
