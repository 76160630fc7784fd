import { sql, type Kysely } from 'kysely';
import * as m001 from './migrations/001-initial.js';
import * as m002 from './migrations/002-reference-catalog.js';
import * as m003 from './migrations/003-operations.js';
import * as m004 from './migrations/004-signature-version.js';
import * as m005 from './migrations/005-checkouts.js';
import * as m006 from './migrations/006-webhooks.js';
import * as m007 from './migrations/007-evm-watch.js';
import * as m008 from './migrations/008-console-sessions.js';
import * as m009 from './migrations/009-chain-explorer.js';
import * as m010 from './migrations/010-idempotency-owner.js';
import * as m011 from './migrations/011-sealed-keys-urls.js';
import * as m012 from './migrations/012-rate-freshness.js';
import * as m013 from './migrations/013-rate-sources.js';
import * as m014 from './migrations/014-payouts.js';
import * as m015 from './migrations/015-hot-wallet.js';
import * as m016 from './migrations/016-rate-spread.js';
import * as m017 from './migrations/017-refund-links.js';
import * as m018 from './migrations/018-chain-watch.js';
import * as m019 from './migrations/019-merchant-users.js';
import * as m020 from './migrations/020-dashboard-self-service.js';
import * as m021 from './migrations/021-manual-payout-txs.js';
import * as m022 from './migrations/022-event-checkout-backfill.js';
import * as m023 from './migrations/023-hot-wallet-cancel.js';
import * as m024 from './migrations/024-used-signatures.js';
import * as m025 from './migrations/025-chain-watch-failures.js';
import * as m026 from './migrations/026-reports.js';
import * as m027 from './migrations/027-reconciliation.js';
import type { Store } from './store.js';
import { COLUMN_TYPES, type ColumnTypes } from './migrations/column-types.js';

interface Migration {
  version: number;
  name: string;
  up(db: Kysely<unknown>, types: ColumnTypes): Promise<void>;
}

/** Versioned migrations, applied in order, each in its own transaction, recorded once. */
export const MIGRATIONS: Migration[] = [
  { version: 1, name: 'initial', up: m001.up },
  { version: 2, name: 'reference-catalog', up: m002.up },
  { version: 3, name: 'operations', up: m003.up },
  { version: 4, name: 'signature-version', up: m004.up },
  { version: 5, name: 'checkouts', up: m005.up },
  { version: 6, name: 'webhooks', up: m006.up },
  { version: 7, name: 'evm-watch', up: m007.up },
  { version: 8, name: 'console-sessions', up: m008.up },
  { version: 9, name: 'chain-explorer', up: m009.up },
  { version: 10, name: 'idempotency-owner', up: m010.up },
  { version: 11, name: 'sealed-keys-urls', up: m011.up },
  { version: 12, name: 'rate-freshness', up: m012.up },
  { version: 13, name: 'rate-sources', up: m013.up },
  { version: 14, name: 'payouts', up: m014.up },
  { version: 15, name: 'hot-wallet', up: m015.up },
  { version: 16, name: 'rate-spread', up: m016.up },
  { version: 17, name: 'refund-links', up: m017.up },
  { version: 18, name: 'chain-watch', up: m018.up },
  { version: 19, name: 'merchant-users', up: m019.up },
  { version: 20, name: 'dashboard-self-service', up: m020.up },
  { version: 21, name: 'manual-payout-txs', up: m021.up },
  { version: 22, name: 'event-checkout-backfill', up: m022.up },
  { version: 23, name: 'hot-wallet-cancel', up: m023.up },
  { version: 24, name: 'used-signatures', up: m024.up },
  { version: 25, name: 'chain-watch-failures', up: m025.up },
  { version: 26, name: 'reports', up: m026.up },
  { version: 27, name: 'reconciliation', up: m027.up },
];

/** The schema version this code needs: the last migration's. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Serialises migrations across instances starting at once (SQLite: BEGIN IMMEDIATE does it). */
async function lock(store: Store, trx: Kysely<unknown>): Promise<void> {
  if (store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(7426001)`.execute(trx);
}

/** `upTo`: stop after that version (tests build a store as an earlier release left it). */
export async function migrate(store: Store, opts: { upTo?: number } = {}): Promise<{ applied: number[] }> {
  const upTo = opts.upTo ?? LATEST_VERSION;
  if (store.dialect !== 'sqlite') return run(store, upTo);
  // The serving store keeps temporary data in memory (store/sqlite.ts). A migration may build an
  // index over a large table: its sort spills to a temporary file instead, as SQLite's default.
  // (The setting cannot change inside a transaction, so it wraps all of them.)
  const { rows } = await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(store.db);
  await sql`PRAGMA temp_store = FILE`.execute(store.db);
  try {
    return await run(store, upTo);
  } finally {
    await sql.raw(`PRAGMA temp_store = ${Number(rows[0]?.temp_store ?? 0)}`).execute(store.db);
  }
}

async function run(store: Store, upTo: number): Promise<{ applied: number[] }> {
  await store.writeTransaction(async (trx) => {
    await lock(store, trx as unknown as Kysely<unknown>);
    await trx.schema
      .createTable('hostpay_migrations')
      .ifNotExists()
      .addColumn('version', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('applied_at', COLUMN_TYPES[store.dialect].time, (c) => c.notNull())
      .execute();
  });
  const applied: number[] = [];
  for (const migration of MIGRATIONS.filter((m) => m.version <= upTo)) {
    const done = await store.writeTransaction(async (trx) => {
      await lock(store, trx as unknown as Kysely<unknown>);
      const row = await trx
        .selectFrom('hostpay_migrations')
        .select('version')
        .where('version', '=', migration.version)
        .executeTakeFirst();
      if (row) return true;
      await migration.up(trx as unknown as Kysely<unknown>, COLUMN_TYPES[store.dialect]);
      await trx
        .insertInto('hostpay_migrations')
        .values({ version: migration.version, name: migration.name, applied_at: new Date().toISOString() })
        .execute();
      return false;
    });
    if (!done) applied.push(migration.version);
  }
  return { applied };
}

/** The highest applied migration; 0 for a store never migrated. */
export async function schemaVersion(store: Store): Promise<number> {
  try {
    const row = await sql<{ v: number | null }>`select max(version) as v from hostpay_migrations`.execute(store.db);
    return Number(row.rows[0]?.v ?? 0);
  } catch {
    return 0;
  }
}
