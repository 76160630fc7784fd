import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../src/features/events/outbox.js';
import { STREAMS_PER_MERCHANT } from '../src/features/events/stream.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { expectError, issueToken, merchantHeaders } from './http-helpers/requests.js';
import { merchantCall } from './http-helpers/webhooks.js';

/**
 * GET /api/v1/cp/events/stream: the merchant's events as Server-Sent Events, what `hostpay
 * listen` follows. The backlog after a sequence, then new events as they commit, byte for byte
 * the JSON of the events API; bounded per merchant; ended by a server shutdown.
 */
const S = '/api/v1/cp/events/stream';
let fx: HttpFixture;
let base: string;

interface Message { id: string; event: string; data: string }
function parseSse(text: string): Message[] {
  return text
    .split('\n\n')
    .filter((block) => block.split('\n').some((l) => l.startsWith('data: ')))
    .map((block) => {
      const lines = block.split('\n');
      const field = (name: string) => lines.filter((l) => l.startsWith(`${name}: `)).map((l) => l.slice(name.length + 2));
      return { id: field('id')[0]!, event: field('event')[0]!, data: field('data').join('\n') };
    });
}

const append = (n: number, type: 'wallet.balance_changed' | 'checkout.created' = 'wallet.balance_changed') =>
  fx.services.store.writeTransaction((trx) => appendEvent(trx, fx.demo.merchantId, type, `{"n":${n},"amount":1.000000000000000000001}`, new Date(fx.now()).toISOString()));

/** Opens a live stream over a real socket; `next()` resolves with the text received so far once it contains `until`. */
async function open(query = '') {
  const controller = new AbortController();
  const res = await fetch(`${base}${S}${query}`, { headers: await merchantHeaders(fx, fx.demo), signal: controller.signal });
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

beforeAll(async () => {
  fx = await createFixture({ sandbox: true });
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
    expect(messages.map((m) => m.event)).toEqual(['wallet.balance_changed', 'checkout.created', 'wallet.balance_changed']);
    for (const m of messages) {
      const event = JSON.parse(m.data) as { id: string };
      const api = await merchantCall(fx, fx.demo, 'GET', `/api/v1/cp/events/${event.id}`);
      expect(api.body).toContain(`"result":${m.data}`);
    }
    expect(m0(messages).data).toContain('"amount":1.000000000000000000001');
    const filtered = parseSse((await merchantCall(fx, fx.demo, 'GET', `${S}?afterSequence=${first.sequence - 1}&maxSeconds=0&type=checkout.created`)).body);
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
      const res = await fetch(`${base}${S}`, { headers: await merchantHeaders(fx, fx.demo, token) });
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
    for (let i = 0; i < 100 && fx.services.webhooks.streams.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(fx.services.webhooks.streams.size).toBe(0);
    const streams = [];
    for (let i = 0; i < STREAMS_PER_MERCHANT; i++) {
      const s = await open();
      await s.next((t) => t.includes('retry: 1000'));
      streams.push(s);
    }
    const refused = await fetch(`${base}${S}`, { headers: await merchantHeaders(fx, fx.demo) });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    expect(fx.services.webhooks.streams.size).toBe(STREAMS_PER_MERCHANT);
    await fx.app.close();
    for (const s of streams) {
      await s.next(() => false).catch(() => undefined);
      expect(s.ended).toBe(true);
    }
    expect(fx.services.webhooks.streams.size).toBe(0);
  });
});

const m0 = (messages: Message[]) => messages[0]!;
