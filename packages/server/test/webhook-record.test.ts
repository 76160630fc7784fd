import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordAttempts, type AttemptRecord } from '../src/features/webhooks/record.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { drain, merchantCall, Receiver } from './http-helpers/webhooks.js';
import { describeStores } from './helpers.js';

/**
 * How successes are recorded (features/webhooks/record.ts): the same rows on both stores, though
 * PostgreSQL writes them with one statement and SQLite with three in a transaction.
 */
const E = '/api/v1/cp/webhook-endpoints';

describeStores('recording webhook successes', (dialect) => {
  let fx: HttpFixture;
  let rx: Receiver;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    rx = await Receiver.start();
  });
  afterAll(async () => {
    await rx.close();
    await fx.close();
  });

  const ping = async (endpointId: string) =>
    (
      JSON.parse((await merchantCall(fx, fx.demo, 'POST', `${E}/${endpointId}/test`)).body).result as {
        eventId: string;
      }
    ).eventId;

  it('an answer with a NUL in its body is recorded as a success, the NUL kept as U+FFFD', async () => {
    rx.answer = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\u0000done');
    const endpoint = JSON.parse((await merchantCall(fx, fx.demo, 'POST', E, { url: rx.url })).body).result as {
      id: string;
    };
    const eventId = await ping(endpoint.id);
    await drain(fx.services.webhooks.worker);
    expect(rx.received).toHaveLength(1);
    const { db } = fx.services.store;
    const delivery = await db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, last_error: null });
    const attempt = await db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', '=', delivery.id)
      .executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({
      endpoint_id: endpoint.id,
      event_id: eventId,
      status_code: 200,
      error: null,
      response_body: 'ok\ufffddone',
      succeeded: 1,
    });
    const row = await db
      .selectFrom('webhook_endpoints')
      .select(['last_success_at', 'failing_since'])
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row.last_success_at).toBe(delivery.updated_at);
    expect(row.failing_since).toBeNull();
  });

  it('successes of two endpoints with different attempt counts, in one call: each delivery, attempt row and endpoint as written one by one', async () => {
    rx.answer = (_req, res) => res.writeHead(204).end();
    const { db } = fx.services.store;
    const endpoints: { id: string }[] = [];
    for (let i = 0; i < 2; i++)
      endpoints.push(JSON.parse((await merchantCall(fx, fx.demo, 'POST', E, { url: rx.url })).body).result);
    const events = [await ping(endpoints[0]!.id), await ping(endpoints[1]!.id), await ping(endpoints[1]!.id)];
    // The first delivery had failed twice before this success.
    const failingSince = '2026-11-01T00:00:00.000Z';
    await db
      .updateTable('webhook_deliveries')
      .set({ attempts: 2, last_error: 'HTTP 503' })
      .where('event_id', '=', events[0]!)
      .execute();
    await db
      .updateTable('webhook_endpoints')
      .set({ failing_since: failingSince })
      .where('id', '=', endpoints[0]!.id)
      .execute();
    const now = Date.parse('2026-11-30T12:00:00.000Z');
    const recs: AttemptRecord[] = [];
    for (const [i, eventId] of events.entries()) {
      const delivery = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('event_id', '=', eventId)
        .executeTakeFirstOrThrow();
      const endpoint = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', delivery.endpoint_id)
        .executeTakeFirstOrThrow();
      recs.push({
        endpoint,
        delivery,
        result: { statusCode: 200 + i, error: null, latencyMs: 10 + i, responseBody: i === 2 ? null : `body ${i}` },
        startedMs: now - 100 + i,
        now: now + i,
      });
    }
    expect(await recordAttempts(fx.services.store, fx.services.outbox, recs)).toBe('ok');
    const at = new Date(now + 2).toISOString();
    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'status', 'attempts', 'last_error', 'updated_at'])
      .where('event_id', 'in', events)
      .execute();
    expect(deliveries.sort((a, b) => events.indexOf(a.event_id) - events.indexOf(b.event_id))).toEqual([
      { event_id: events[0], status: 'succeeded', attempts: 3, last_error: null, updated_at: at },
      { event_id: events[1], status: 'succeeded', attempts: 1, last_error: null, updated_at: at },
      { event_id: events[2], status: 'succeeded', attempts: 1, last_error: null, updated_at: at },
    ]);
    const attempts = await db
      .selectFrom('webhook_attempts')
      .select([
        'event_id',
        'endpoint_id',
        'attempted_at',
        'status_code',
        'error',
        'latency_ms',
        'response_body',
        'succeeded',
      ])
      .where('event_id', 'in', events)
      .execute();
    expect(attempts.sort((a, b) => events.indexOf(a.event_id) - events.indexOf(b.event_id))).toEqual(
      recs.map((r, i) => ({
        event_id: events[i],
        endpoint_id: r.endpoint.id,
        attempted_at: new Date(now - 100 + i).toISOString(),
        status_code: 200 + i,
        error: null,
        latency_ms: 10 + i,
        response_body: i === 2 ? null : `body ${i}`,
        succeeded: 1,
      })),
    );
    const rows = await db
      .selectFrom('webhook_endpoints')
      .select(['id', 'last_success_at', 'failing_since'])
      .where(
        'id',
        'in',
        endpoints.map((e) => e.id),
      )
      .execute();
    expect(rows.sort((a, b) => (a.id === endpoints[0]!.id ? -1 : b.id === endpoints[0]!.id ? 1 : 0))).toEqual([
      { id: endpoints[0]!.id, last_success_at: at, failing_since: null },
      { id: endpoints[1]!.id, last_success_at: at, failing_since: null },
    ]);
  });
});
