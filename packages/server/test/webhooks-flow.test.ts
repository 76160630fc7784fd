import { parseExactJson } from '@hostpay/protocol';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCall, configureChains, resultOf } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture, type TestKey } from './http-helpers/fixture.js';
import { expectError } from './http-helpers/requests.js';
import { drain as drainWorker, merchantCall, Receiver } from './http-helpers/webhooks.js';
import { describeStores } from './helpers.js';
import { adminCaller, OPERATOR_TOKENS } from './http-helpers/admin-fixture.js';

/**
 * The merchant's path through the "done when": register an endpoint, pay a sandbox
 * checkout, receive `checkout.settled` signed so that the official `standardwebhooks` library
 * verifies it, see every attempt in the log, rotate, test, redeliver and replay after an outage.
 * The worker is driven by hand (drain) so nothing here depends on timing.
 */
describeStores('webhooks', (dialect) => {
  let fx: HttpFixture;
  let rx: Receiver;
  const E = '/api/v1/cp/webhook-endpoints';
  const C = '/api/v1/cp/psp/hosted-pay';

  interface Endpoint {
    id: string;
    url: string;
    secret?: string;
    enabledEvents: string[];
    disabled: boolean;
    disabledReason: string | null;
    previousSecretExpiresAt: string | null;
  }
  interface Attempt {
    eventId: string;
    eventType: string;
    statusCode: number | null;
    error: string | null;
    latencyMs: number;
    responseBody: string | null;
    succeeded: boolean;
  }

  beforeAll(async () => {
    fx = await createFixture({ sandbox: true, adminTokens: OPERATOR_TOKENS }, {}, dialect);
    await configureChains(fx.services);
    rx = await Receiver.start();
  });
  afterAll(async () => {
    await fx.close();
    await rx.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, key: TestKey = fx.demo) =>
    merchantCall(fx, key, method, url, body);
  /** The result with numbers as numbers (no amounts in these answers). */
  const json = <T>(res: { body: string }): T => (JSON.parse(res.body) as { result: T }).result;
  const drain = () => drainWorker(fx.services.webhooks.worker);
  async function paidCheckout(): Promise<string> {
    const created = resultOf<{ id: string }>(
      await checkoutCall(fx, fx.demo, 'POST', C, {
        amount: '12.5',
        currency: 'USDT',
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      }),
    );
    const paid = await checkoutCall(fx, fx.demo, 'POST', `${C}/${created.id}/simulate-payment`, {
      asset: 'USDT',
      chain: 'TRON',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return created.id;
  }

  describe('endpoints', () => {
    let endpoint: Endpoint;

    it('create shows the whsec_ secret once; list and get never show it', async () => {
      const res = await call('POST', E, { url: rx.url, description: 'shop backend' });
      expect(res.statusCode, res.body).toBe(201);
      endpoint = resultOf<Endpoint>(res);
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(endpoint.enabledEvents).toEqual([]);
      const list = await call('GET', E);
      expect(list.body).not.toContain('whsec_');
      expect(resultOf<Endpoint[]>(list).map((e) => e.id)).toContain(endpoint.id);
      expect(JSON.parse(list.body).nextCursor).toBeNull();
      const one = await call('GET', `${E}/${endpoint.id}`);
      expect(one.statusCode).toBe(200);
      expect(one.body).not.toContain('whsec_');
    });

    it('refuses bad URLs with 400 INVALID_URL and bad event types with 400 INVALID_BODY', async () => {
      for (const url of [
        'http://10.0.0.1/x',
        'https://169.254.169.254/',
        'https://[::ffff:192.168.0.1]/',
        'ftp://example.com/',
        'https://0x0a000001/',
      ]) {
        expectError(await call('POST', E, { url }), 400, 'INVALID_URL');
      }
      expectError(await call('POST', E, { url: rx.url, enabledEvents: ['checkout.nope'] }), 400, 'INVALID_BODY');
      expectError(await call('PATCH', `${E}/${endpoint.id}`, { url: 'https://10.0.0.1./' }), 400, 'INVALID_URL');
    });

    it('another merchant sees none of it (404)', async () => {
      const other = await fx.createKey(await fx.createMerchant('Other Shop'));
      expectError(await call('GET', `${E}/${endpoint.id}`, undefined, other), 404, 'NOT_FOUND');
      expectError(await call('PATCH', `${E}/${endpoint.id}`, { description: 'mine' }, other), 404, 'NOT_FOUND');
      expectError(await call('DELETE', `${E}/${endpoint.id}`, undefined, other), 404, 'NOT_FOUND');
      expect(resultOf<unknown[]>(await call('GET', E, undefined, other))).toEqual([]);
    });

    it('a paid checkout reaches the endpoint, verified by the standardwebhooks library, byte for byte as the events API has it', async () => {
      const checkoutId = await paidCheckout();
      await drain();
      const settled = rx.received.filter((r) => r.body.includes('"type":"checkout.settled"'));
      expect(settled).toHaveLength(1);
      const msg = settled[0]!;
      const wh = new Webhook(endpoint.secret!);
      const verified = wh.verify(msg.body, {
        'webhook-id': String(msg.headers['webhook-id']),
        'webhook-timestamp': String(msg.headers['webhook-timestamp']),
        'webhook-signature': String(msg.headers['webhook-signature']),
      }) as { id: string; data: { object: { id: string } } };
      expect(verified.data.object.id).toBe(checkoutId);
      expect(msg.headers['webhook-id']).toBe(verified.id);
      expect(msg.headers['content-type']).toBe('application/json');
      // The events API returns the same bytes the webhook carried.
      const event = await call('GET', `/api/v1/cp/events/${verified.id}`);
      expect(event.body).toContain(`"result":${msg.body}`);
      // Sequence order: created before underpaid/processing before settled.
      const types = rx.received.map((r) => (JSON.parse(r.body) as { type: string }).type);
      expect(types.indexOf('checkout.created')).toBeLessThan(types.indexOf('checkout.settled'));
      const seqs = rx.received.map((r) => (JSON.parse(r.body) as { sequence: number }).sequence);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    });

    it('the delivery log shows every attempt: status, latency, the answer; failures are retried on the schedule', async () => {
      rx.answer = (_r, res) => res.writeHead(503).end('down for maintenance');
      const ping = resultOf<{ eventId: string }>(await call('POST', `${E}/${endpoint.id}/test`));
      await drain();
      rx.answer = (_r, res) => res.writeHead(200).end('ok');
      const log = json<Attempt[]>(await call('GET', `${E}/${endpoint.id}/deliveries?eventId=${ping.eventId}`));
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({
        eventType: 'test.ping',
        statusCode: 503,
        error: null,
        responseBody: 'down for maintenance',
        succeeded: false,
      });
      const delivery = await fx.services.store.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('event_id', '=', ping.eventId)
        .executeTakeFirstOrThrow();
      const wait = Date.parse(delivery.next_attempt_at) - fx.now();
      expect(wait).toBeGreaterThan(3000);
      expect(wait).toBeLessThanOrEqual(6000);
      fx.clock.offsetMs += 7000;
      await drain();
      const again = json<Attempt[]>(await call('GET', `${E}/${endpoint.id}/deliveries?eventId=${ping.eventId}`));
      expect(again.map((a) => a.succeeded)).toEqual([true, false]);
      const both = rx.received.filter((r) => r.headers['webhook-id'] === ping.eventId);
      expect(both).toHaveLength(2);
    });

    it('the log keeps the first 2 KB of an answer; a redirect is a failed attempt and is not followed', async () => {
      const elsewhere = await Receiver.start();
      const talker = await Receiver.start();
      talker.answer = (_r, res) =>
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`${'é'.repeat(1500)}${'z'.repeat(5000)}`);
      const t = resultOf<Endpoint>(await call('POST', E, { url: talker.url }));
      await call('POST', `${E}/${t.id}/test`);
      await drain();
      const [kept] = json<Attempt[]>(await call('GET', `${E}/${t.id}/deliveries`));
      expect(kept).toMatchObject({ statusCode: 200, succeeded: true });
      // 1,500 two-byte characters are 3,000 bytes: the first 2,048 bytes are 1,024 of them.
      expect(kept!.responseBody).toBe('é'.repeat(1024));
      talker.answer = (_r, res) => res.writeHead(302, { location: elsewhere.url }).end();
      await call('POST', `${E}/${t.id}/test`);
      await drain();
      const [moved] = json<Attempt[]>(await call('GET', `${E}/${t.id}/deliveries`));
      expect(moved).toMatchObject({ statusCode: 302, succeeded: false });
      expect(elsewhere.received).toHaveLength(0);
      await call('DELETE', `${E}/${t.id}`);
      await talker.close();
      await elsewhere.close();
    });

    it('a network error is logged without a status', async () => {
      const dead = await Receiver.start();
      const url = dead.url;
      await dead.close();
      const e = resultOf<Endpoint>(await call('POST', E, { url, enabledEvents: ['checkout.created'] }));
      await call('POST', `${E}/${e.id}/test`);
      await drain();
      const [attempt] = json<Attempt[]>(await call('GET', `${E}/${e.id}/deliveries`));
      expect(attempt).toMatchObject({ statusCode: null, succeeded: false, responseBody: null });
      expect(attempt!.error).toMatch(/ECONNREFUSED/);
      expect((await call('DELETE', `${E}/${e.id}`)).statusCode).toBe(200);
      expectError(await call('GET', `${E}/${e.id}`), 404, 'NOT_FOUND');
    });

    it('rotation: both signatures for 24 h, each verifies', async () => {
      const rotated = resultOf<Endpoint>(await call('POST', `${E}/${endpoint.id}/rotate-secret`));
      expect(rotated.secret).not.toBe(endpoint.secret);
      expect(rotated.previousSecretExpiresAt).not.toBeNull();
      const ping = resultOf<{ eventId: string }>(await call('POST', `${E}/${endpoint.id}/test`));
      await drain();
      const msg = rx.received.find((r) => r.headers['webhook-id'] === ping.eventId)!;
      expect(String(msg.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [rotated.secret!, endpoint.secret!]) {
        expect(() => new Webhook(secret).verify(msg.body, msg.headers as Record<string, string>)).not.toThrow();
      }
      fx.clock.offsetMs += 25 * 3600 * 1000;
      const later = resultOf<{ eventId: string }>(await call('POST', `${E}/${endpoint.id}/test`));
      await drain();
      const next = rx.received.find((r) => r.headers['webhook-id'] === later.eventId)!;
      expect(String(next.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(() => new Webhook(endpoint.secret!).verify(next.body, next.headers as Record<string, string>)).toThrow();
      endpoint = { ...endpoint, secret: rotated.secret! };
    });

    it('redeliver one event (same webhook-id) and replay everything since a time after an outage', async () => {
      const events = resultOf<{ id: string; type: string; sequence: number }[]>(
        await call('GET', '/api/v1/cp/events?type=checkout.settled'),
      );
      const settled = events[0]!;
      const before = rx.received.length;
      const res = await call('POST', `/api/v1/cp/events/${settled.id}/redeliver`);
      expect(res.statusCode, res.body).toBe(202);
      await drain();
      expect(rx.received.slice(before).map((r) => r.headers['webhook-id'])).toEqual([settled.id]);
      expectError(await call('POST', '/api/v1/cp/events/evt_nobody/redeliver'), 404, 'NOT_FOUND');

      // An operator's redelivery (operator API, console): the same webhook-id, and an audit entry naming who asked.
      const admin = adminCaller(() => fx.app);
      const operatorAt = rx.received.length;
      const byOperator = await admin('POST', `/webhook-endpoints/${endpoint.id}/redeliver`, {
        body: { eventId: settled.id },
      });
      expect(byOperator.statusCode, byOperator.body).toBe(202);
      await drain();
      expect(rx.received.slice(operatorAt).map((r) => r.headers['webhook-id'])).toEqual([settled.id]);
      const audit = json<{
        items: { operator: string; action: string; objectId: string; after: { eventId: string } }[];
      }>(await admin('GET', `/audit?objectType=webhook_endpoint&objectId=${endpoint.id}`));
      expect(audit.items.map((a) => [a.action, a.after.eventId])).toEqual([['webhook.redeliver', settled.id]]);
      expect(audit.items[0]!.operator).toBe('alice');

      // Outage: the endpoint is disabled by the merchant, a checkout is paid meanwhile, then replay.
      const outageStart = new Date(fx.now() - 1000).toISOString();
      await call('PATCH', `${E}/${endpoint.id}`, { disabled: true });
      const missedCheckout = await paidCheckout();
      await drain();
      expect(rx.received.some((r) => r.body.includes(missedCheckout))).toBe(false);
      await call('PATCH', `${E}/${endpoint.id}`, { disabled: false });
      const replay = await call('POST', `${E}/${endpoint.id}/replay`, { since: outageStart });
      expect(replay.statusCode, replay.body).toBe(202);
      expect(Number(resultOf<{ queued: string }>(replay).queued)).toBeGreaterThanOrEqual(2);
      await drain();
      expect(rx.received.filter((r) => r.body.includes(missedCheckout)).length).toBeGreaterThanOrEqual(2);
      expectError(await call('POST', `${E}/${endpoint.id}/replay`, { since: 'yesterday' }), 400, 'INVALID_BODY');
    });

    it('410 Gone disables the endpoint and tells the merchant with webhook_endpoint.disabled', async () => {
      const watcher = await Receiver.start();
      const gone = await Receiver.start();
      gone.answer = (_r, res) => res.writeHead(410).end('gone');
      const w = resultOf<Endpoint>(
        await call('POST', E, { url: watcher.url, enabledEvents: ['webhook_endpoint.disabled'] }),
      );
      const g = resultOf<Endpoint>(await call('POST', E, { url: gone.url, enabledEvents: ['checkout.created'] }));
      await checkoutCall(fx, fx.demo, 'POST', C, {
        amount: '5',
        currency: 'USDT',
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      });
      await drain();
      const after = resultOf<Endpoint>(await call('GET', `${E}/${g.id}`));
      expect(after).toMatchObject({ disabled: true, disabledReason: 'gone' });
      expect(watcher.received).toHaveLength(1);
      const told = parseExactJson(watcher.received[0]!.body) as {
        type: string;
        data: { object: { id: string; disabledReason: string } };
      };
      expect(told.type).toBe('webhook_endpoint.disabled');
      expect(told.data.object).toMatchObject({ id: g.id, disabledReason: 'gone' });
      await call('DELETE', `${E}/${w.id}`);
      await call('DELETE', `${E}/${g.id}`);
      await watcher.close();
      await gone.close();
    });

    it('5 days without a success disables too', async () => {
      const failing = await Receiver.start();
      failing.answer = (_r, res) => res.writeHead(500).end('boom');
      const f = resultOf<Endpoint>(await call('POST', E, { url: failing.url }));
      await call('POST', `${E}/${f.id}/test`);
      await drain();
      expect(resultOf<Endpoint>(await call('GET', `${E}/${f.id}`)).disabled).toBe(false);
      fx.clock.offsetMs += 5 * 24 * 3600 * 1000 + 1000;
      await drain();
      expect(resultOf<Endpoint>(await call('GET', `${E}/${f.id}`))).toMatchObject({
        disabled: true,
        disabledReason: 'failing',
      });
      const disabled = resultOf<{ type: string; data: { object: { id: string } } }[]>(
        await call('GET', '/api/v1/cp/events?type=webhook_endpoint.disabled&limit=1'),
      );
      expect(disabled[0]!.data.object.id).toBe(f.id);
      // Operators see it among the disabled endpoints, with why and since when it failed.
      const admin = adminCaller(() => fx.app);
      const listed = json<{ items: { id: string; merchantId: string; health: Record<string, unknown> }[] }>(
        await admin('GET', `/webhook-endpoints?disabled=true&merchantId=${fx.demo.merchantId}`),
      );
      const seen = listed.items.find((e) => e.id === f.id);
      expect(seen?.merchantId).toBe(fx.demo.merchantId);
      expect(seen?.health).toMatchObject({
        disabled: true,
        disabledReason: 'failing',
        successRate24h: 0,
        lastSuccessAt: null,
      });
      expect(seen?.health.failingSince).not.toBeNull();
      expect(seen?.health.attempts24h).toBeGreaterThanOrEqual(1);
      expect(
        json<{ items: { id: string }[] }>(await admin('GET', '/webhook-endpoints?disabled=false')).items.map(
          (e) => e.id,
        ),
      ).not.toContain(f.id);
      await call('DELETE', `${E}/${f.id}`);
      await failing.close();
    });
  });

  describe('metrics', () => {
    it('attempts by result, per-endpoint latency, lag, queue depth and age on /metrics', async () => {
      const text = await fx.app.hostpayMetrics.text();
      expect(text).toMatch(/^hostpay_webhook_attempts_total\{result="success"\} [1-9]/m);
      expect(text).toMatch(/^hostpay_webhook_attempts_total\{result="http_5xx"\} [1-9]/m);
      expect(text).toMatch(/^hostpay_webhook_attempts_total\{result="gone"\} 1$/m);
      expect(text).toMatch(/^hostpay_webhook_attempt_duration_seconds_count\{endpoint="we_\w+"\} \d+/m);
      expect(text).toMatch(/^hostpay_webhook_delivery_lag_seconds_count \d+/m);
      expect(text).toMatch(/^hostpay_webhook_queue_depth \d+$/m);
      expect(text).toMatch(/^hostpay_webhook_queue_oldest_age_seconds [\d.e+-]+$/m);
    });
  });

  describe('events API', () => {
    it("lists newest first with a cursor and a type filter; exact decimals; another merchant's event is 404", async () => {
      const first = await call('GET', '/api/v1/cp/events?limit=2');
      const page1 = (JSON.parse(first.body) as { result: { id: string; sequence: number; type: string }[] }).result;
      expect(page1).toHaveLength(2);
      expect(page1[0]!.sequence).toBeGreaterThan(page1[1]!.sequence);
      const cursor = JSON.parse(first.body).nextCursor as string;
      const page2 = (
        JSON.parse((await call('GET', `/api/v1/cp/events?limit=2&cursor=${cursor}`)).body) as {
          result: { sequence: number }[];
        }
      ).result;
      expect(page2[0]!.sequence).toBe(page1[1]!.sequence - 1);
      const created = resultOf<{ type: string; data: { object: { amount: string } } }[]>(
        await call('GET', '/api/v1/cp/events?type=checkout.created'),
      );
      expect(created.every((e) => e.type === 'checkout.created')).toBe(true);
      expect(created.some((e) => e.data.object.amount === '12.5')).toBe(true);
      expectError(await call('GET', '/api/v1/cp/events?type=nope'), 400, 'INVALID_QUERY');
      expectError(await call('GET', '/api/v1/cp/events?cursor=abc'), 400, 'INVALID_QUERY');
      const other = await fx.createKey(await fx.createMerchant('Nosy Shop'));
      const id = page1[0]!.id;
      expectError(await call('GET', `/api/v1/cp/events/${id}`, undefined, other), 404, 'NOT_FOUND');
    });

    it("?checkoutId= lists the events about one checkout, however old: its own, the credit it caused; none of another checkout's; another merchant's checkout: empty", async () => {
      const mine = await paidCheckout();
      const later = await paidCheckout();
      const about = resultOf<{ type: string; data: { object: { id?: string; checkoutId?: string } } }[]>(
        await call('GET', `/api/v1/cp/events?checkoutId=${mine}&limit=200`),
      );
      const types = about.map((e) => e.type);
      expect(types).toContain('checkout.created');
      expect(types).toContain('checkout.settled');
      expect(types).toContain('wallet.balance_changed');
      for (const e of about) expect(e.data.object.id === mine || e.data.object.checkoutId === mine).toBe(true);
      expect(about.some((e) => e.data.object.id === later)).toBe(false);
      const other = await fx.createKey(await fx.createMerchant('Nosy Events Shop'));
      expect(resultOf<unknown[]>(await call('GET', `/api/v1/cp/events?checkoutId=${mine}`, undefined, other))).toEqual(
        [],
      );
      expectError(await call('GET', '/api/v1/cp/events?checkoutId=not-a-checkout'), 400, 'INVALID_QUERY');
    });

    it('every event about a checkout carries its checkout_id, the created event of a create over HTTP included', async () => {
      const fresh = resultOf<{ id: string }>(
        await checkoutCall(fx, fx.demo, 'POST', C, {
          amount: '7',
          currency: 'USDT',
          paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
        }),
      ).id;
      await paidCheckout();
      const rows = await fx.services.store.db
        .selectFrom('events')
        .select(['id', 'type', 'data', 'checkout_id'])
        .where('merchant_id', '=', fx.demo.merchantId)
        .execute();
      // What the event's own JSON says it is about (migration 020's rule).
      const about = (type: string, data: string): string | null => {
        const o = (JSON.parse(data) as { object: Record<string, unknown> }).object;
        const id = type.startsWith('checkout.') ? o.id : type === 'refund.requested' ? o.refundOf : o.checkoutId;
        return typeof id === 'string' ? id : null;
      };
      expect(rows.map((r) => [r.id, r.checkout_id])).toEqual(rows.map((r) => [r.id, about(r.type, r.data)]));
      expect(rows.filter((r) => r.type === 'checkout.created' && r.checkout_id === fresh)).toHaveLength(1);
      expect(rows.filter((r) => r.type === 'checkout.created').length).toBeGreaterThan(2);
    });

    it('every ledger posting writes wallet.balance_changed in its transaction; a replayed posting writes none', async () => {
      const wallet = await fx.services.store.db
        .selectFrom('wallets')
        .selectAll()
        .where('merchant_id', '=', fx.demo.merchantId)
        .executeTakeFirstOrThrow();
      const posting = {
        walletId: wallet.id,
        kind: 'credit' as const,
        amount: '1.5',
        idempotencyKey: 'events-ledger-test',
      };
      const { posting: p } = await fx.services.admin.post(posting, { operator: 'test' });
      await fx.services.admin.post(posting, { operator: 'test' });
      await fx.services.admin.post({ walletId: wallet.id, kind: 'freeze', amount: '0.5' }, { operator: 'test' });
      const res = await call('GET', '/api/v1/cp/events?type=wallet.balance_changed&limit=2');
      const [freeze, credit] = (
        parseExactJson(res.body) as { result: { type: string; data: { object: Record<string, unknown> } }[] }
      ).result;
      expect(credit!.data.object).toMatchObject({ walletId: wallet.id, postingId: p.id, kind: 'credit' });
      expect(String(credit!.data.object.amount)).toBe('1.5');
      expect(res.body).toContain('"kind":"credit","amount":1.5,');
      expect(freeze!.data.object).toMatchObject({ walletId: wallet.id, kind: 'freeze' });
      const all = resultOf<{ data: { object: { postingId?: string } } }[]>(
        await call('GET', '/api/v1/cp/events?type=wallet.balance_changed&limit=200'),
      );
      expect(all.filter((e) => e.data.object.postingId === p.id)).toHaveLength(1);
    });

    it('needs events:read; endpoints need webhooks:write', async () => {
      const narrow = await fx.createKey(fx.demo.merchantId, { scopes: ['checkout:read'] });
      expectError(await call('GET', '/api/v1/cp/events', undefined, narrow), 403, 'SCOPE_MISSING');
      expectError(await call('GET', E, undefined, narrow), 403, 'SCOPE_MISSING');
    });
  });
});
