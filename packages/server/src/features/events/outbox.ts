import { EVENT_TYPE_VALUES } from '@hostpay/protocol';
import { newId } from '../../store/ids.js';
import type { QueryResult } from 'kysely';
import { insertRowStep, prepared } from '../../store/prepared.js';
import { runSteps, type Steps } from '../../store/steps.js';
import type { Db } from '../../store/store.js';
import { announceEvents } from './wakeup.js';

/** Every event type of the contract (spec/checkout.md, "Events and webhooks"): the wire list. */
export const EVENT_TYPES = EVENT_TYPE_VALUES;
export type EventType = (typeof EVENT_TYPES)[number];

/** What subscribers of the outbox see of an appended event. */
export interface OutboxEvent {
  id: string;
  merchantId: string;
  sequence: number;
  type: string;
}

/**
 * Work that commits with every appended event, inside its transaction (webhooks queue the
 * deliveries it owes). Both forms are required, so that no path that writes events can leave a
 * subscriber's part out:
 * - `each`, for one event appended by Outbox.append (or appendSteps): the steps (store/steps.ts)
 *   that write its share, returning how many deliveries it queued, so the commit wakes the
 *   delivery workers only when there are some;
 * - `batch`, for the events of a batched PostgreSQL statement (batch.ts): the body of a CTE doing
 *   the same for every row of the CTE named `events` (id, merchant_id, sequence, type,
 *   created_at), returning one row per delivery it queued.
 */
export interface OutboxSubscriber {
  each(db: Db, event: OutboxEvent, at: string): Steps<number>;
  batch(events: string): string;
}

declare module '../../feature-kit/contributions.js' {
  interface ContributionPoints {
    /** Work that commits with every appended event (the webhooks' deliveries). */
    outboxSubscribers: OutboxSubscriber;
  }
}

/**
 * The outbox of one set of services: its subscribers are the `outboxSubscribers` contributions
 * of the registered features (events/feature.ts consumes them), read when an event is appended.
 */
export interface Outbox {
  /**
   * Writes one event inside the caller's transaction, so an event exists exactly when the change
   * it reports committed, with every subscriber's share. `objectJson` is the finished JSON text
   * of `data.object` (exact decimals as number literals). `checkoutId`: the checkout the event is
   * about, so its webhook deliveries are found by index (migration 020).
   */
  append(
    trx: Db,
    merchantId: string,
    type: EventType,
    objectJson: string,
    at: string,
    checkoutId?: string | null,
  ): Promise<AppendedEvent>;
  /** `append` as steps of the caller's write path (store/steps.ts): `db` builds the statements. */
  appendSteps(
    db: Db,
    merchantId: string,
    type: EventType,
    objectJson: string,
    at: string,
    checkoutId?: string | null,
  ): Steps<AppendedEvent>;
  /** The subscribers, in the order of the registered features (batch.ts). */
  subscribers(): readonly OutboxSubscriber[];
}

export function outbox(subscribers: () => readonly OutboxSubscriber[]): Outbox {
  return {
    append: (trx, merchantId, type, objectJson, at, checkoutId = null) =>
      runSteps(trx, appendEvent(trx, subscribers(), merchantId, type, objectJson, at, checkoutId)),
    appendSteps: (db, merchantId, type, objectJson, at, checkoutId = null) =>
      appendEvent(db, subscribers(), merchantId, type, objectJson, at, checkoutId),
    subscribers,
  };
}

export interface AppendedEvent {
  id: string;
  merchantId: string;
  sequence: number;
  type: EventType;
  createdAt: string;
}

const bumpSequence = prepared(['merchantId'], (db, v) =>
  db
    .updateTable('event_sequences')
    .set((eb) => ({ last_sequence: eb('last_sequence', '+', 1) }))
    .where('merchant_id', '=', v.merchantId as string)
    .returning('last_sequence'),
);

/**
 * Takes the merchant's event counter row before a wallet row (PostgreSQL; SQLite's one writer
 * needs no row locks), for a transaction that will credit or debit a wallet and then write an
 * event: the lock order of features/checkouts/states.ts ("Lock order"), so that it never waits
 * for the wallet while holding the counter opposite a transaction that does the reverse.
 * Nothing is locked when the merchant has no event yet (its first event inserts the row).
 */
export async function lockEventCounter(trx: Db, merchantId: string, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect !== 'postgres') return;
  await trx
    .selectFrom('event_sequences')
    .select('merchant_id')
    .where('merchant_id', '=', merchantId)
    .forUpdate()
    .execute();
}

/**
 * lockEventCounter, with the counter row made to exist first (at 0, for a merchant without
 * events yet), so the lock is real on PostgreSQL: one such transaction per merchant at a time.
 */
export async function takeEventCounter(trx: Db, merchantId: string, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await trx
    .insertInto('event_sequences')
    .values({ merchant_id: merchantId, last_sequence: 0 })
    .onConflict((oc) => oc.column('merchant_id').doNothing())
    .execute();
  await lockEventCounter(trx, merchantId, dialect);
}

/**
 * Outbox.append. The per-merchant sequence comes from a counter row that the update locks: two
 * transactions of one merchant take consecutive numbers, never the same one.
 */
function* appendEvent(
  db: Db,
  subscribers: readonly OutboxSubscriber[],
  merchantId: string,
  type: EventType,
  objectJson: string,
  at: string,
  checkoutId: string | null,
): Steps<AppendedEvent> {
  const bumped: QueryResult<{ last_sequence: number | bigint }> = yield bumpSequence.step({ merchantId });
  let sequence = bumped.rows[0]?.last_sequence;
  if (sequence === undefined) {
    // First event of this merchant: a concurrent first insert loses on the primary key and retries as an update.
    const inserted: QueryResult<unknown> = yield db
      .insertInto('event_sequences')
      .values({ merchant_id: merchantId, last_sequence: 1 })
      .onConflict((oc) => oc.column('merchant_id').doNothing());
    if ((inserted.numAffectedRows ?? 0n) > 0n) sequence = 1;
    else {
      const again: QueryResult<{ last_sequence: number | bigint }> = yield bumpSequence.step({ merchantId });
      const row = again.rows[0];
      if (row === undefined) throw new Error(`the event counter of merchant ${merchantId} is missing`);
      sequence = row.last_sequence;
    }
  }
  const id = newId('evt', 16);
  yield insertRowStep('events', {
    id,
    merchant_id: merchantId,
    sequence: Number(sequence),
    type,
    data: `{"object":${objectJson}}`,
    created_at: at,
    checkout_id: checkoutId,
  });
  // What subscribers owe the event commits with it (the webhooks' deliveries); the workers and
  // the merchant's open event streams are woken by the commit (wakeup.ts).
  let queued = 0;
  for (const subscriber of subscribers)
    queued += yield* subscriber.each(db, { id, merchantId, sequence: Number(sequence), type }, at);
  yield* announceEvents(db, merchantId, queued > 0);
  return { id, merchantId, sequence: Number(sequence), type, createdAt: at };
}
