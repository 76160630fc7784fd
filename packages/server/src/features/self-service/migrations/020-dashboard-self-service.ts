import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v20 (the merchant dashboard's own routes):
 * - a merchant's page settings: the name and logo the hosted payment page shows, and the success
 *   and cancel URLs a checkout gets when its request names none. All null for existing merchants,
 *   which keep working as before (the page shows the merchant's name, no logo, no URLs).
 * - `events.checkout_id`: the checkout an event is about (its own `checkout.*` events, the
 *   settlement's and refund's `wallet.balance_changed`, `refund.requested`), so a checkout's
 *   webhook deliveries are found by index instead of by reading every event's JSON. Existing
 *   events get it from their JSON here, once.
 * - indexes for the dashboard's home: a checkout's attempts by event, and a merchant's checkouts
 *   by status and last change (settled volume per day and month, the checkouts needing attention).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  for (const column of ['display_name', 'logo_url', 'default_success_url', 'default_cancel_url'])
    await db.schema.alterTable('merchants').addColumn(column, 'text').execute();

  await db.schema.alterTable('events').addColumn('checkout_id', 'text').execute();
  // The column types tell the dialect apart (numeric money only on PostgreSQL).
  const postgres = t.money === 'numeric';
  const field = (path: string) =>
    postgres ? sql.raw(`(data::jsonb #>> '{object,${path}}')`) : sql.raw(`json_extract(data, '$.object.${path}')`);
  await sql`update events set checkout_id = ${field('id')} where type like 'checkout.%'`.execute(db);
  await sql`update events set checkout_id = ${field('checkoutId')} where type = 'wallet.balance_changed'`.execute(db);
  await sql`update events set checkout_id = ${field('refundOf')} where type = 'refund.requested'`.execute(db);
  await db.schema.createIndex('events_checkout').on('events').columns(['checkout_id']).execute();

  await db.schema
    .createIndex('webhook_attempts_event')
    .on('webhook_attempts')
    .columns(['event_id', 'attempted_at', 'id'])
    .execute();
  await db.schema
    .createIndex('checkouts_merchant_status_updated')
    .on('checkouts')
    .columns(['merchant_id', 'status', 'updated_at'])
    .execute();
}
