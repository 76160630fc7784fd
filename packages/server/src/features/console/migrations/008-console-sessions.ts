import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v8: operator console sessions (docs/console.md). Only the SHA-256 of the session id is kept,
 * so a copy of the database signs nobody in; the fingerprint of the operator token that opened
 * the session ends it when that token is changed or removed.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('console_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('operator', 'text', (c) => c.notNull())
    .addColumn('token_fingerprint', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('last_seen_at', t.time, (c) => c.notNull())
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('console_sessions_expiry').on('console_sessions').columns(['expires_at']).execute();
}
