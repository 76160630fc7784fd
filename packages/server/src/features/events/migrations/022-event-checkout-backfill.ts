import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v22: `events.checkout_id` for the `checkout.created` events that PostgreSQL's batched
 * checkout create wrote without it between migration 020 and the batch taking its events from the
 * events feature (features/events/batch.ts): read from the event's own JSON, as 020 did, so
 * `GET /events?checkoutId=` and a checkout's webhook deliveries list them. Rows that have it are
 * left alone; SQLite never wrote such rows, so there it finds none.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  // The column types tell the dialect apart (numeric money only on PostgreSQL).
  const id =
    t.money === 'numeric' ? sql.raw(`(data::jsonb #>> '{object,id}')`) : sql.raw(`json_extract(data, '$.object.id')`);
  await sql`update events set checkout_id = ${id} where checkout_id is null and type like 'checkout.%'`.execute(db);
}
