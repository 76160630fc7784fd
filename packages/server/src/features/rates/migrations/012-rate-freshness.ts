import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v12: a rate knows how fresh it is. `fetched_at` is when its source answered (an
 * operator's rate: when it was set), `max_age_seconds` how long it may be quoted (null: as long
 * as it is stored, an operator's pinned rate), `pinned` marks an operator's rate, which a rate
 * feed never overwrites until the operator removes it. Every rate stored before was typed by an
 * operator, so each is pinned as it was.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('rates').addColumn('fetched_at', t.time).execute();
  await db.schema.alterTable('rates').addColumn('max_age_seconds', 'integer').execute();
  await db.schema
    .alterTable('rates')
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update rates set pinned = 1, fetched_at = updated_at`.execute(db);
}
