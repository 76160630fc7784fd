import { randomBytes } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STREAMS_PER_MERCHANT } from '../src/features/events/stream.js';
import { createServices, type Services } from '../src/services.js';
import { dropPostgresSchema } from '../src/store/postgres.js';
import { checkoutCall, configureChains } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture, type TestKey } from './http-helpers/fixture.js';
import { expectError, issueToken, merchantHeaders } from './http-helpers/requests.js';
import { merchantCall } from './http-helpers/webhooks.js';
import { describeStores, postgresAvailable, TEST_DATABASE_URL } from './helpers.js';
import { adminCaller, OPERATOR_TOKENS, resultOf } from './http-helpers/admin-fixture.js';

/**
 * GET /api/v1/cp/events/stream: the merchant's events as Server-Sent Events, what `hostpay
 * listen` follows. The backlog after a sequence, then new events as they commit, byte for byte
 * the JSON of the events API; bounded per merchant; ended by a server shutdown.
 */
const S = '/api/v1/cp/events/stream';
let fx: HttpFixture;
let base: string;

interface Message {
  id: string;
  event: string;
  data: string;
}
function parseSse(text: string): Message[] {
  return text
    .split('\n\n')
    .filter((block) => block.split('\n').some((l) => l.startsWith('data: ')))
    .map((block) => {
      const lines = block.split('\n');
      const field = (name: string) =>
        lines.filter((l) => l.startsWith(`${name}: `)).map((l) => l.slice(name.length + 2));
      return { id: field('id')[0]!, event: field('event')[0]!, data: field('data').join('\n') };
    });
}

const append = (n: number, type: 'wallet.balance_changed' | 'checkout.created' = 'wallet.balance_changed') =>
  appendTo(fx.services, fx.demo.merchantId, n, type);

/** Appends one event in its own transaction of `services`' store (another instance's, or the CLI's). */
const appendTo = (
  services: Services,
  merchantId: string,
  n: number,
  type: 'wallet.balance_changed' | 'checkout.created' = 'wallet.balance_changed',
) =>
  services.store.writeTransaction((trx) =>
    services.outbox.append(
      trx,
      merchantId,
      type,
      `{"n":${n},"amount":1.000000000000000000001}`,
      new Date().toISOString(),
    ),
  );

/** Opens a live stream over a real socket; `next()` resolves with the text received so far once it contains `until`. */
function open(query = '') {
  return openOn(fx, base, fx.demo, query);
}

async function openOn(fx: HttpFixture, base: string, key: TestKey, query = '') {
  const controller = new AbortController();
  const res = await fetch(`${base}${S}${query}`, {
    headers: await merchantHeaders(fx, key, undefined, { method: 'GET', url: `${S}${query}` }),
    signal: controller.signal,
  });
  let text = '';
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let done = false;
  return {
    res,
    async next(until: (t: string) => boolean, timeoutMs = 5000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      while (!until(text)) {
        if (done) throw new Error(`stream ended before: ${text}`);
        if (Date.now() > deadline) throw new Error(`not received in time: ${text}`);
        const chunk = await reader!.read();
        if (chunk.done) done = true;
        else text += decoder.decode(chunk.value, { stream: true });
      }
      return text;
    },
    get ended() {
      return done;
    },
    close: () => controller.abort(),
  };
}

// The stream's contract on both stores; how commits wake streams is per store (below).
describeStores('GET /events/stream', (dialect) => {
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    base = await fx.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await fx.close();
  });

  describe('event stream', () => {
    it('sends the events after a sequence, in order, each the exact JSON of the events API, and ends with maxSeconds=0', async () => {
      const first = await append(1);
      await append(2, 'checkout.created');
      await append(3);
      const res = await merchantCall(fx, fx.demo, 'GET', `${S}?afterSequence=${first.sequence - 1}&maxSeconds=0`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      const messages = parseSse(res.body);
      expect(messages.map((m) => Number(m.id))).toEqual([first.sequence, first.sequence + 1, first.sequence + 2]);
      expect(messages.map((m) => m.event)).toEqual([
        'wallet.balance_changed',
        'checkout.created',
        'wallet.balance_changed',
      ]);
      for (const m of messages) {
        const event = JSON.parse(m.data) as { id: string };
        const api = await merchantCall(fx, fx.demo, 'GET', `/api/v1/cp/events/${event.id}`);
        expect(api.body).toContain(`"result":${m.data}`);
      }
      expect(m0(messages).data).toContain('"amount":1.000000000000000000001');
      const filtered = parseSse(
        (
          await merchantCall(
            fx,
            fx.demo,
            'GET',
            `${S}?afterSequence=${first.sequence - 1}&maxSeconds=0&type=checkout.created`,
          )
        ).body,
      );
      expect(filtered.map((m) => m.event)).toEqual(['checkout.created']);
    });

    it('refuses bad parameters with 400 INVALID_QUERY', async () => {
      expectError(await merchantCall(fx, fx.demo, 'GET', `${S}?maxSeconds=9999`), 400, 'INVALID_QUERY');
      expectError(await merchantCall(fx, fx.demo, 'GET', `${S}?type=nope`), 400, 'INVALID_QUERY');
      expectError(await merchantCall(fx, fx.demo, 'GET', `${S}?afterSequence=-1`), 400, 'INVALID_QUERY');
    });

    it('follows new events as they commit, from the newest at connect by default', async () => {
      await append(10);
      const stream = await open();
      expect(stream.res.status).toBe(200);
      await stream.next((t) => t.includes('retry: 1000'));
      const e = await append(11);
      const text = await stream.next((t) => parseSse(t).length >= 1);
      const [m] = parseSse(text);
      expect(Number(m!.id)).toBe(e.sequence);
      expect(JSON.parse(m!.data)).toMatchObject({ id: e.id, sequence: e.sequence });
      stream.close();
    });

    it('ends when its bearer token expires', async () => {
      const token = await issueToken(fx, fx.demo);
      const ttl = fx.config.tokenTtlSeconds;
      // Two seconds of the token's life left.
      fx.clock.offsetMs += (ttl - 2) * 1000;
      try {
        const res = await fetch(`${base}${S}`, {
          headers: await merchantHeaders(fx, fx.demo, token, { method: 'GET', url: S }),
        });
        expect(res.status).toBe(200);
        const started = Date.now();
        await res.text(); // resolves when the server ends the stream
        expect(Date.now() - started).toBeLessThan(5000);
      } finally {
        fx.clock.offsetMs -= (ttl - 2) * 1000;
      }
    });

    it(`allows ${STREAMS_PER_MERCHANT} streams at once per merchant (429 RATE_LIMITED beyond), and a shutdown ends them`, async () => {
      // The previous test's stream is closed by the client; the server notices when the socket does.
      for (let i = 0; i < 100 && fx.services.events.streams.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(fx.services.events.streams.size).toBe(0);
      const streams = [];
      for (let i = 0; i < STREAMS_PER_MERCHANT; i++) {
        const s = await open();
        await s.next((t) => t.includes('retry: 1000'));
        streams.push(s);
      }
      const refused = await fetch(`${base}${S}`, {
        headers: await merchantHeaders(fx, fx.demo, undefined, { method: 'GET', url: S }),
      });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
      expect(fx.services.events.streams.size).toBe(STREAMS_PER_MERCHANT);
      await fx.app.close();
      for (const s of streams) {
        await s.next(() => false).catch(() => undefined);
        expect(s.ended).toBe(true);
      }
      expect(fx.services.events.streams.size).toBe(0);
    });
  });
});

const m0 = (messages: Message[]) => messages[0]!;

/**
 * Counts the reads of one merchant's events on the store's own connection (where streams read;
 * writes run on a connection of their own): the real queries, not a counter of the code under test.
 */
function eventReads(services: Services) {
  const spy = vi.spyOn(services.store.db.getExecutor(), 'executeQuery');
  const reads = (merchantId: string) =>
    spy.mock.calls.filter(
      ([q]) => /from "events"/.test((q as CompiledQuery).sql) && (q as CompiledQuery).parameters.includes(merchantId),
    );
  return { count: (merchantId: string) => reads(merchantId).length, restore: () => spy.mockRestore() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A stream the client dropped leaves its connection open and idle, which the test server would
 * wait out at close for Fastify's keep-alive timeout (72 s; the real server cuts idle connections
 * at shutdown, server.ts). Every stream of these tests has ended when this runs.
 */
async function closeFixture(fx: HttpFixture | undefined): Promise<void> {
  if (fx === undefined) return;
  const closing = fx.close();
  fx.app.server.closeAllConnections();
  await closing;
}

/** Waits until the server has seen the closed streams go (it notices when their sockets do). */
async function allClosed(fx: HttpFixture): Promise<void> {
  for (let i = 0; i < 100 && fx.services.events.streams.size > 0; i++) await sleep(20);
  expect(fx.services.events.streams.size).toBe(0);
}

/** Streams that have read their backlog and wait (their first look is done). */
async function openIdle(fx: HttpFixture, base: string, key: TestKey, n: number) {
  const streams = [];
  for (let i = 0; i < n; i++) {
    const s = await openOn(fx, base, key);
    await s.next((t) => t.includes('retry: 1000'));
    streams.push(s);
  }
  await sleep(100);
  return streams;
}

describe('event streams wake on commit, not on a timer', () => {
  let fx: HttpFixture;
  let base: string;
  let other: TestKey;
  beforeAll(async () => {
    // The fallback poll is a minute: only a wake-up can bring an event within these tests.
    fx = await createFixture({ sandbox: true }, { events: { streams: { pollMs: 60_000 } } });
    base = await fx.app.listen({ host: '127.0.0.1', port: 0 });
    await configureChains(fx.services);
    other = await fx.createKey(await fx.createMerchant('Other Shop'));
  });
  afterAll(async () => {
    await closeFixture(fx);
  });

  it('an event committed by a checkout create reaches an open stream within 1 s', async () => {
    const create = (token: string) =>
      checkoutCall(
        fx,
        fx.demo,
        'POST',
        '/api/v1/cp/psp/hosted-pay',
        { amount: '10', currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] },
        {},
        token,
      );
    // A first create warms the path (on a loaded machine a cold one alone took over 1 s); the
    // stream opens after it, from the newest event, so only the second create's events reach it.
    const token = await issueToken(fx, fx.demo);
    expect((await create(token)).statusCode).toBe(201);
    const stream = await openOn(fx, base, fx.demo);
    await stream.next((t) => t.includes('retry: 1000'));
    const started = Date.now();
    const res = await create(token);
    expect(res.statusCode, res.body).toBe(201);
    const text = await stream.next((t) => parseSse(t).some((m) => m.event === 'checkout.created'), 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    const created = parseSse(text).find((m) => m.event === 'checkout.created')!;
    expect(created.data).toContain((JSON.parse(res.body) as { result: { id: string } }).result.id);
    stream.close();
    await allClosed(fx);
  });

  it('events appended one commit after another arrive in order, each soon after its commit', async () => {
    const stream = await openOn(fx, base, fx.demo);
    await stream.next((t) => t.includes('retry: 1000'));
    const sequences: number[] = [];
    for (let i = 0; i < 5; i++) {
      sequences.push((await appendTo(fx.services, fx.demo.merchantId, i)).sequence);
      await stream.next((t) => parseSse(t).length === i + 1, 1000);
    }
    const text = await stream.next(() => true);
    expect(parseSse(text).map((m) => Number(m.id))).toEqual(sequences);
    stream.close();
    await allClosed(fx);
  });

  it('a stream is woken after the commit, never before: no read while the transaction is open, and a rolled-back event is never sent', async () => {
    const stream = await openOn(fx, base, fx.demo);
    await stream.next((t) => t.includes('retry: 1000'));
    await sleep(100);
    const reads = eventReads(fx.services);
    try {
      let readsBeforeCommit = -1;
      const e = await fx.services.store.writeTransaction(async (trx) => {
        const appended = await fx.services.outbox.append(
          trx,
          fx.demo.merchantId,
          'wallet.balance_changed',
          '{"n":1}',
          new Date().toISOString(),
        );
        // The transaction stays open (it holds the store's connection) well past any wake-up's turn.
        await sleep(200);
        readsBeforeCommit = reads.count(fx.demo.merchantId);
        return appended;
      });
      expect(readsBeforeCommit).toBe(0);
      const text = await stream.next((t) => parseSse(t).length === 1, 1000);
      expect(JSON.parse(parseSse(text)[0]!.data)).toMatchObject({ id: e.id });
      await expect(
        fx.services.store.writeTransaction(async (trx) => {
          await fx.services.outbox.append(
            trx,
            fx.demo.merchantId,
            'wallet.balance_changed',
            '{"n":2}',
            new Date().toISOString(),
          );
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const kept = await appendTo(fx.services, fx.demo.merchantId, 3);
      const after = parseSse(await stream.next((t) => parseSse(t).length === 2, 1000));
      expect(after.map((m) => (JSON.parse(m.data) as { id: string }).id)).toEqual([e.id, kept.id]);
    } finally {
      reads.restore();
      stream.close();
      await allClosed(fx);
    }
  });

  it("many events in one commit: one read per stream; a wake for merchant A makes none of merchant B's streams read", async () => {
    const mine = await openIdle(fx, base, fx.demo, 2);
    const theirs = await openIdle(fx, base, other, 3);
    const reads = eventReads(fx.services);
    const a = () => reads.count(fx.demo.merchantId);
    const b = () => reads.count(other.merchantId);
    try {
      // Concurrent writers share one group commit (store/group-commit.ts): one wake for 50 events.
      await Promise.all(Array.from({ length: 50 }, (_, i) => appendTo(fx.services, fx.demo.merchantId, i)));
      for (const s of mine) await s.next((t) => parseSse(t).length === 50, 1000);
      await sleep(100);
      expect(a()).toBe(mine.length);
      // One commit after another: each wakes the streams, which read what is there.
      for (let i = 0; i < 10; i++) await appendTo(fx.services, fx.demo.merchantId, 100 + i);
      for (const s of mine) await s.next((t) => parseSse(t).length === 60, 1000);
      await sleep(100);
      expect(a()).toBeLessThanOrEqual(mine.length * 11);
      expect(b()).toBe(0);
      for (const s of theirs) expect(parseSse(await s.next(() => true))).toEqual([]);
    } finally {
      reads.restore();
      for (const s of [...mine, ...theirs]) s.close();
      await allClosed(fx);
    }
  });
});

describe('an idle stream costs (almost) no queries', () => {
  let fx: HttpFixture;
  let base: string;
  beforeAll(async () => {
    // A server's defaults: wake-ups on commit and the slow fallback poll.
    fx = await createFixture({ sandbox: true });
    base = await fx.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await closeFixture(fx);
  });

  it(`${STREAMS_PER_MERCHANT} idle streams read the store at most once each in 1 s (a 250 ms poll would read 4 times each)`, async () => {
    const streams = await openIdle(fx, base, fx.demo, STREAMS_PER_MERCHANT);
    const reads = eventReads(fx.services);
    try {
      await sleep(1000);
      expect(reads.count(fx.demo.merchantId)).toBeLessThanOrEqual(STREAMS_PER_MERCHANT);
    } finally {
      reads.restore();
      for (const s of streams) s.close();
      await allClosed(fx);
    }
  });

  it('an event written by another process (the CLI on the same SQLite file) is still seen, by the fallback poll', async () => {
    const cli = await createServices(fx.config, { expirySweepMs: 0 });
    const stream = await openOn(fx, base, fx.demo);
    try {
      await stream.next((t) => t.includes('retry: 1000'));
      const e = await appendTo(cli, fx.demo.merchantId, 1);
      const text = await stream.next((t) => parseSse(t).length >= 1, 4000);
      expect(Number(parseSse(text)[0]!.id)).toBe(e.sequence);
    } finally {
      stream.close();
      await allClosed(fx);
      await cli.close();
    }
  });
});

describe('revocation reaches an open stream (issue 24)', () => {
  let fx: HttpFixture;
  let base: string;
  const admin = adminCaller(() => fx.app);
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true, adminTokens: OPERATOR_TOKENS });
    base = await fx.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await closeFixture(fx);
  });

  /** A fresh merchant and key (its id is `apiKey`), with a stream open on it. */
  async function streaming() {
    const key = await fx.createKey(await fx.createMerchant('Streaming Shop'));
    const stream = await openOn(fx, base, key);
    expect(stream.res.status).toBe(200);
    await stream.next((t) => t.includes('retry: 1000'));
    return { key, stream };
  }

  /** The stream ends within 2 s of `act`, its last words naming `code`. */
  async function endsWithin2s(stream: Awaited<ReturnType<typeof openOn>>, code: string) {
    const started = Date.now();
    const text = await stream.next(() => false, 4000).catch((err: Error) => err.message);
    expect(stream.ended, text).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(text).toContain(`: stream ended: ${code}\n\n`);
  }

  it('revoking the key (admin API) ends its open stream within 2 s; a stream of another key goes on', async () => {
    const { key, stream } = await streaming();
    const bystander = await streaming();
    expect(resultOf(await admin('POST', `/keys/${key.apiKey}/revoke`))).toMatchObject({ status: 'revoked' });
    await endsWithin2s(stream, 'KEY_REVOKED');
    expect(bystander.stream.ended).toBe(false);
    // Still served: an event after the revocation reaches it.
    const e = await appendTo(fx.services, bystander.key.merchantId, 1);
    const text = await bystander.stream.next((t) => parseSse(t).length === 1);
    expect(Number(parseSse(text)[0]!.id)).toBe(e.sequence);
    bystander.stream.close();
    await allClosed(fx);
  });

  it('suspending the merchant (admin API) ends its open stream within 2 s', async () => {
    const { key, stream } = await streaming();
    expect(resultOf(await admin('POST', `/merchants/${key.merchantId}/suspend`))).toMatchObject({
      status: 'suspended',
    });
    await endsWithin2s(stream, 'MERCHANT_SUSPENDED');
    await allClosed(fx);
  });

  it('removing the events:read scope from the key (admin API) ends its open stream within 2 s', async () => {
    const { key, stream } = await streaming();
    expect(resultOf(await admin('PATCH', `/keys/${key.apiKey}`, { body: { scopes: ['wallets:read'] } }))).toMatchObject(
      { scopes: ['wallets:read'] },
    );
    await endsWithin2s(stream, 'SCOPE_MISSING');
    await allClosed(fx);
  });
});

describe.skipIf(!postgresAvailable)('PostgreSQL: event streams wake through LISTEN/NOTIFY', () => {
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  let fx: HttpFixture;
  let base: string;
  let writer: Services;
  beforeAll(async () => {
    fx = await createFixture(
      { sandbox: true, databaseUrl: TEST_DATABASE_URL, databaseSchema: schema },
      { events: { streams: { pollMs: 60_000 } } },
    );
    base = await fx.app.listen({ host: '127.0.0.1', port: 0 });
    writer = await createServices(fx.config, { expirySweepMs: 0 });
  });
  afterAll(async () => {
    await writer?.close();
    await closeFixture(fx);
    await dropPostgresSchema(TEST_DATABASE_URL, schema);
  });

  it("a commit of this instance or of another reaches the stream within 1 s; other merchants' streams do not read", async () => {
    const other = await fx.createKey(await fx.createMerchant('Other Shop'));
    const stream = await openOn(fx, base, fx.demo);
    await stream.next((t) => t.includes('retry: 1000'));
    const theirs = await openIdle(fx, base, other, 2);
    const reads = eventReads(fx.services);
    try {
      const sequences: number[] = [];
      for (const [i, services] of [fx.services, writer, writer, fx.services].entries()) {
        const started = Date.now();
        sequences.push((await appendTo(services, fx.demo.merchantId, i)).sequence);
        await stream.next((t) => parseSse(t).length === i + 1, 1000);
        expect(Date.now() - started).toBeLessThan(1000);
      }
      expect(parseSse(await stream.next(() => true)).map((m) => Number(m.id))).toEqual(sequences);
      await sleep(100);
      expect(reads.count(other.merchantId)).toBe(0);
    } finally {
      reads.restore();
      stream.close();
      for (const s of theirs) s.close();
      await allClosed(fx);
    }
  });
});
