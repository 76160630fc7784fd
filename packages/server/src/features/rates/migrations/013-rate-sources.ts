import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v13: rate feeds. `rate_sources` are the providers an operator configured (a base URL
 * sealed like a webhook URL, since a self-hosted proxy may carry a key in it; the pairs; timings;
 * health; the lease of the one instance that refreshes it, as `evm_watches` has).
 * `rate_observations` keeps each source's last answer per pair, from which the stored rate is
 * aggregated (median over sources). `rate_pairs` holds the per-pair rules: whether a cross rate
 * may stand in for the pair, and how far a source may be from the median before it is dropped.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('rate_sources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    // Null: the provider's own address.
    .addColumn('base_url_sealed', 'text')
    .addColumn('base_url_shown', 'text')
    // JSON array text: ["BTC/EUR", …].
    .addColumn('pairs', 'text', (c) => c.notNull())
    .addColumn('refresh_seconds', 'integer', (c) => c.notNull())
    .addColumn('max_age_seconds', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_success_at', t.time)
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', t.time)
    .addColumn('last_latency_ms', 'integer')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.time)
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rate_observations')
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('base', 'text', (c) => c.notNull())
    .addColumn('quote', 'text', (c) => c.notNull())
    .addColumn('rate', t.money, (c) => c.notNull())
    .addColumn('fetched_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_observations_pk', ['source_id', 'base', 'quote'])
    .execute();

  await db.schema
    .createTable('rate_pairs')
    .addColumn('base', 'text', (c) => c.notNull())
    .addColumn('quote', 'text', (c) => c.notNull())
    .addColumn('allow_cross', 'integer', (c) => c.notNull().defaultTo(0))
    // Percent, exact decimal text; null: the default (docs/rates.md).
    .addColumn('max_deviation_percent', t.money)
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_pairs_pk', ['base', 'quote'])
    .execute();
}
