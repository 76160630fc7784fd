import type { Kysely } from 'kysely';
import type { ColumnTypes } from './column-types.js';

/**
 * v10: an Idempotency-Key claim carries its owner (`<instance id>/<boot id>`, cluster/instance.ts)
 * and a lease: a claim whose owner is gone — an earlier run of the same instance, or a
 * lease past its end — is taken over by the next request with that key instead of refusing it
 * until retention ends. Claims written before have neither and are taken over at once.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('admin_idempotency').addColumn('owner', 'text').execute();
  await db.schema.alterTable('admin_idempotency').addColumn('lease_until', t.time).execute();
}
