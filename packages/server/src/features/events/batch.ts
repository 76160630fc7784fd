import { newId } from '../../store/ids.js';
import type { EventType, OutboxSubscriber } from './outbox.js';
import { CHANNEL, EVENTS_PREFIX } from './wakeup.js';

/**
 * The events of a batched PostgreSQL statement (features/checkouts/create-batch.ts: the checkout
 * creates of one turn in one statement), as a fragment of the caller's `with`: this feature
 * writes `events` and `event_sequences` there as Outbox.append (outbox.ts) does for one event, and
 * every outbox subscriber adds what it owes them (the webhooks' deliveries) as fanOut does, so
 * the batch and the one-event path cannot write different rows.
 *
 * - counters: `insert … on conflict do update` adds the batch's count to the merchant's counter
 *   (creating it for a first event), locking the row until commit, so the numbers are gap-free and
 *   increase in commit order; several merchants' rows are taken in merchant-id order, so two
 *   batches cannot deadlock on them;
 * - events: numbered from the counter in the order given, with their checkout (migration 020);
 * - wake-ups: the payloads of wakeup.ts ('e:<merchant>' per merchant, '' when a subscriber queued
 *   something), on the schema's channel, delivered at commit.
 */

/** One event of a batch. `objectJson`: the finished JSON text of `data.object`, as Outbox.append takes it. */
export interface BatchEvent {
  merchantId: string;
  type: EventType;
  objectJson: string;
  at: string;
  /** The checkout the event is about, as Outbox.append's `checkoutId`. */
  checkoutId: string | null;
}

/** The CTE that holds the batch's appended events, for what follows in the caller's statement. */
export const BATCH_EVENTS = 'appended_events';

/**
 * The fragment, for a statement whose parameters `counters` and `events` (e.g. `$5::json`) are
 * eventBatchParameters' two texts: `ctes` goes in the statement's `with` list after the caller's
 * own CTEs, `select` is the statement's final select (the wake-ups). `subscribers`: the outbox's
 * (Outbox.subscribers).
 */
export function eventBatchSql(
  counters: string,
  events: string,
  subscribers: readonly OutboxSubscriber[],
): { ctes: string; select: string } {
  // Each subscriber's part of the batch is its own CTE: PostgreSQL runs every data-modifying CTE
  // to completion, read or not.
  const owed = subscribers.map((s, i) => `owed_${i} as (${s.batch(BATCH_EVENTS)})`);
  const ctes = [
    `event_counters as (
    insert into event_sequences (merchant_id, last_sequence)
    select merchant_id, n from json_to_recordset(${counters}) as x(merchant_id text, n integer) order by merchant_id
    on conflict (merchant_id) do update set last_sequence = event_sequences.last_sequence + excluded.last_sequence
    returning merchant_id, last_sequence
  )`,
    `${BATCH_EVENTS} as (
    insert into events (id, merchant_id, sequence, type, data, created_at, checkout_id)
    select x.id, x.merchant_id, s.last_sequence - x.n + x.ord, x.type, x.data::text, x.created_at, x.checkout_id
    from json_to_recordset(${events})
      as x(id text, merchant_id text, ord integer, n integer, type text, data json, created_at timestamptz, checkout_id text)
    join event_counters s on s.merchant_id = x.merchant_id
    returning id, merchant_id, sequence, type, created_at
  )`,
    ...owed,
  ].join(',\n  ');
  const queued = subscribers.map((_, i) => ` union select '' from owed_${i}`).join('');
  const select = `select count(pg_notify(${CHANNEL}, p)) as woken
from (select distinct '${EVENTS_PREFIX}' || merchant_id as p from ${BATCH_EVENTS}${queued}) as payloads`;
  return { ctes, select };
}

/** The fragment's two parameters (counters, events) as JSON texts; the events are numbered per merchant in the order given. */
export function eventBatchParameters(events: BatchEvent[]): [string, string] {
  const counts = new Map<string, number>();
  const ords: number[] = [];
  for (const e of events) {
    const ord = (counts.get(e.merchantId) ?? 0) + 1;
    counts.set(e.merchantId, ord);
    ords.push(ord);
  }
  const counters = JSON.stringify([...counts].map(([merchant_id, n]) => ({ merchant_id, n })));
  // The event's data goes in as a JSON value, not as a string holding JSON: its text is written
  // once, not escaped again, and PostgreSQL reproduces a `json` value exactly as given
  // (json_to_recordset; `::text` is then that text, byte for byte, exact decimals included).
  const rows = events.map(
    (e, i) =>
      `{"id":"${newId('evt', 16)}","merchant_id":${JSON.stringify(e.merchantId)},"ord":${ords[i]!},"n":${counts.get(e.merchantId)!},"type":"${e.type}","data":{"object":${e.objectJson}},"created_at":"${e.at}","checkout_id":${e.checkoutId === null ? 'null' : JSON.stringify(e.checkoutId)}}`,
  );
  return [counters, `[${rows.join(',')}]`];
}
