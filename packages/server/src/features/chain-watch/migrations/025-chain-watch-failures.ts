import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v25 (chain watch health): how many rounds in a row a watch failed (a node error, or
 * a node whose blocks do not link up: "the chain moved"), so every instance shows a watch stuck
 * failing as `failing` past the threshold, not only the one holding its lease. A good round sets
 * it back to 0.
 */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema
    .alterTable('chain_watches')
    .addColumn('failed_rounds', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
