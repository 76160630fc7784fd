import { EVENT_TYPE_VALUES } from '@hostpay/protocol';
import { newId } from '../../store/ids.js';
import { insertRow, prepared } from '../../store/prepared.js';
import type { Db } from '../../store/store.js';
import { fanOut } from '../webhooks/queue.js';
import { announceEvents } from './wakeup.js';

/** Every event type of the contract (spec/checkout.md, "Events and webhooks"): the wire list. */
export const EVENT_TYPES = EVENT_TYPE_VALUES;
export type EventType = (typeof EVENT_TYPES)[number];

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
 * Writes one event to the outbox inside the caller's transaction, so an event exists exactly when
 * the change it reports committed. `objectJson` is the finished JSON text of `data.object` (exact
 * decimals as number literals). The per-merchant sequence comes from a counter row that the
 * update locks: two transactions of one merchant take consecutive numbers, never the same one.
 */
export async function appendEvent(
  trx: Db,
  merchantId: string,
  type: EventType,
  objectJson: string,
  at: string,
): Promise<AppendedEvent> {
  const [bumped] = (await bumpSequence(trx, { merchantId })).rows;
  let sequence = bumped?.last_sequence;
  if (sequence === undefined) {
    // First event of this merchant: a concurrent first insert loses on the primary key and retries as an update.
    const inserted = await trx
      .insertInto('event_sequences')
      .values({ merchant_id: merchantId, last_sequence: 1 })
      .onConflict((oc) => oc.column('merchant_id').doNothing())
      .executeTakeFirst();
    if ((inserted.numInsertedOrUpdatedRows ?? 0n) > 0n) sequence = 1;
    else {
      const again = await trx
        .updateTable('event_sequences')
        .set((eb) => ({ last_sequence: eb('last_sequence', '+', 1) }))
        .where('merchant_id', '=', merchantId)
        .returning('last_sequence')
        .executeTakeFirstOrThrow();
      sequence = again.last_sequence;
    }
  }
  const id = newId('evt', 16);
  await insertRow(trx, 'events', {
    id,
    merchant_id: merchantId,
    sequence: Number(sequence),
    type,
    data: `{"object":${objectJson}}`,
    created_at: at,
  });
  // The deliveries the event owes commit with it (features/webhooks/queue.ts); the workers and
  // the merchant's open event streams are woken by the commit (features/webhooks/wakeup.ts).
  const queued = await fanOut(trx, { id, merchantId, sequence: Number(sequence), type }, at);
  await announceEvents(trx, merchantId, queued > 0);
  return { id, merchantId, sequence: Number(sequence), type, createdAt: at };
}
