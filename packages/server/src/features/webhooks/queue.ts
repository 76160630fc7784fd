import { newId } from '../../store/ids.js';
import type { QueryResult } from 'kysely';
import { insertRowStep, prepared } from '../../store/prepared.js';
import { runSteps, type Steps } from '../../store/steps.js';
import type { Db } from '../../store/store.js';
import type { OutboxEvent, OutboxSubscriber } from '../events/outbox.js';
import { announceQueued } from '../events/wakeup.js';

/**
 * The delivery queue: one `webhook_deliveries` row per (endpoint, event) send that is owed. Rows
 * are written in the transaction that writes the event (fan-out), so an event and the deliveries
 * it owes commit together and a crash between the two cannot lose one.
 */
export type QueuedEvent = OutboxEvent;

/** Whether an endpoint with this `enabled_events` text wants an event type ('[]': every type). */
export function subscribed(enabledEvents: string, type: string): boolean {
  const list = JSON.parse(enabledEvents) as string[];
  return list.length === 0 || list.includes(type);
}

/** `announce` false: the caller announces them itself (Outbox.append, with its event, in one statement). */
export async function insertDeliveries(trx: Db, rows: DeliveryOwed[], at: string, announce = true): Promise<string[]> {
  const ids = await runSteps(trx, deliverySteps(trx, rows, at));
  if (announce && ids.length > 0) await announceQueued(trx);
  return ids;
}

interface DeliveryOwed {
  endpointId: string;
  merchantId: string;
  eventId: string;
  sequence: number;
}

/** The rows of `rows`' deliveries, written 200 to a statement. */
function* deliverySteps(db: Db, rows: DeliveryOwed[], at: string): Steps<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i += 200) {
    const values = rows.slice(i, i + 200).map((r) => {
      const id = newId('whd', 10);
      ids.push(id);
      return {
        id,
        endpoint_id: r.endpointId,
        merchant_id: r.merchantId,
        event_id: r.eventId,
        sequence: r.sequence,
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        last_error: null,
        created_at: at,
        updated_at: at,
      };
    });
    // One delivery (the usual case) through a statement prepared once; more in one statement.
    if (values.length === 1) yield insertRowStep('webhook_deliveries', values[0]!);
    else if (values.length > 0) yield db.insertInto('webhook_deliveries').values(values);
  }
  return ids;
}

const activeEndpoints = prepared(['merchantId'], (db, v) =>
  db
    .selectFrom('webhook_endpoints')
    .select(['id', 'enabled_events'])
    .where('merchant_id', '=', v.merchantId as string)
    .where('disabled', '=', 0),
);

/**
 * Queues an event for every enabled endpoint of its merchant that subscribes to its type, inside
 * the caller's transaction, which announces them (announceEvents): returns how many were queued.
 * `test.ping` is queued by the test route for one endpoint only.
 */
export function* fanOut(db: Db, event: QueuedEvent, at: string): Steps<number> {
  if (event.type === 'test.ping') return 0;
  const endpoints: QueryResult<{ id: string; enabled_events: string }> = yield activeEndpoints.step({
    merchantId: event.merchantId,
  });
  const wanted = endpoints.rows.filter((e) => subscribed(e.enabled_events, event.type));
  const ids = yield* deliverySteps(
    db,
    wanted.map((e) => ({
      endpointId: e.id,
      merchantId: event.merchantId,
      eventId: event.id,
      sequence: event.sequence,
    })),
    at,
  );
  return ids.length;
}

/**
 * fanOut for the events of a batched PostgreSQL statement (events/batch.ts), as the body of a CTE
 * over the CTE `events`: one delivery per enabled endpoint of the event's merchant subscribed to
 * its type ('[]': every type, as `subscribed` decides). The id is `whd_`, the event id's time and
 * counter (so deliveries sort as their events), and 40 bits of md5(event id, endpoint id).
 */
export function fanOutBatch(events: string): string {
  return `insert into webhook_deliveries (id, endpoint_id, merchant_id, event_id, sequence, status, attempts,
      next_attempt_at, last_error, created_at, updated_at)
    select 'whd_' || substr(e.id, 5, 12) || substr(md5(e.id || '/' || w.id), 1, 10), w.id, e.merchant_id, e.id,
      e.sequence, 'pending', 0, e.created_at, null, e.created_at, e.created_at
    from ${events} e join webhook_endpoints w on w.merchant_id = e.merchant_id and w.disabled = 0
    where e.type <> 'test.ping' and (w.enabled_events = '[]' or w.enabled_events::jsonb ? e.type)
    returning 1`;
}

/** Every event appended anywhere owes its deliveries, in its own transaction (the webhooks' outbox contribution). */
export const deliveriesOwed: OutboxSubscriber = { each: fanOut, batch: fanOutBatch };
