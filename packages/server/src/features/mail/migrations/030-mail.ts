import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v30 (email, docs/mail.md): the mail outbox (one row per mail owed, written in the transaction
 * of its cause, leased by the instance sending it), each dashboard user's notification
 * preferences and the addresses that bounced hard (not mailed again until changed).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    // payer | user | operator
    .addColumn('to_role', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    // What the mail is made of (its template's data, JSON); sealed instead when it holds a link token.
    .addColumn('data', 'text')
    .addColumn('data_sealed', 'text')
    // The subject as sent (or kept), written by the sender.
    .addColumn('subject', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', t.time, (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.time)
    .addColumn('last_error', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addColumn('sent_at', t.time)
    .addColumn('body_deleted_at', t.time)
    .execute();
  await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('mail_outbox_created').on('mail_outbox').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('mail_outbox_merchant_role')
    .on('mail_outbox')
    .columns(['merchant_id', 'to_role', 'created_at'])
    .execute();
  await db.schema.createIndex('mail_outbox_to').on('mail_outbox').columns(['to_address', 'created_at']).execute();

  await db.schema
    .createTable('mail_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    // JSON object of the six switches the user set (the rest are defaults).
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mail_bounces')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text')
    .addColumn('mail_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_bounces_merchant').on('mail_bounces').columns(['merchant_id', 'at']).execute();
}
