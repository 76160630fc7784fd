import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v4: per-key signing policy. `require_signature_v2` = 1 refuses version-1 signatures (which do
 * not cover the method and path) for that key; existing keys keep accepting both.
 */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('require_signature_v2', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
