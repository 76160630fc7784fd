import { sql, type Kysely } from 'kysely';
import type { Store } from './store.js';
import { COLUMN_TYPES, type ColumnTypes } from './migrations/column-types.js';
import * as m010 from './migrations/010-idempotency-owner.js';
import * as m024 from './migrations/024-used-signatures.js';

/**
 * One schema change. Versions are global: every feature's migrations and the kernel's are one
 * sequence, 1..n, recorded in hostpay_migrations as they are applied.
 */
export interface Migration {
  version: number;
  name: string;
  up(db: Kysely<unknown>, types: ColumnTypes): Promise<void>;
}

/** The migrations of the kernel's own tables (admin_idempotency, used_signatures). */
export const KERNEL_MIGRATIONS: readonly Migration[] = [
  { version: 10, name: 'idempotency-owner', up: m010.up },
  { version: 24, name: 'used-signatures', up: m024.up },
];

/** Who declared a list of migrations (`the kernel`, `feature "<name>"`), for start-up errors. */
export interface MigrationSource {
  owner: string;
  migrations: readonly Migration[];
}

/**
 * The kernel's and the features' migrations as one list in version order. Throws at start-up,
 * naming the owners, when two declare one version or a version is missing: a store migrated by
 * one build must read the same numbers, names and order in the next.
 */
export function mergeMigrations(sources: readonly MigrationSource[]): Migration[] {
  const owner = new Map<number, string>();
  const all: Migration[] = [];
  for (const { owner: who, migrations } of sources) {
    for (const m of migrations) {
      const other = owner.get(m.version);
      if (other !== undefined) {
        throw new Error(`migration ${m.version} is declared by ${other} and by ${who}: one version, one migration`);
      }
      owner.set(m.version, `${who} ("${m.name}")`);
      all.push(m);
    }
  }
  all.sort((a, b) => a.version - b.version);
  all.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(
        `no migration ${i + 1} (the next declared is ${m.version}, by ${owner.get(m.version)}): versions run 1..n without gaps`,
      );
    }
  });
  return all;
}

/**
 * What a list of migrations builds on an empty SQLite store, as one script
 * (src/sqlite-schema.ts, written by `npm run schema:sqlite` with store/sqlite-squash.ts).
 */
export interface FreshSchema {
  /** The migrations it stands for, in order: version and name. */
  readonly migrations: readonly (readonly [version: number, name: string])[];
  readonly statements: readonly string[];
}

/** The schema version a list of migrations brings a store to: the last one's. */
export const latestVersion = (migrations: readonly Migration[]): number => migrations.at(-1)?.version ?? 0;

/** Serialises migrations across instances starting at once (SQLite: BEGIN IMMEDIATE does it). */
async function lock(store: Store, trx: Kysely<unknown>): Promise<void> {
  if (store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(7426001)`.execute(trx);
}

/**
 * Applies `migrations` (mergeMigrations' list) not yet recorded. `upTo`: stop after that version
 * (tests build a store as an earlier release left it). `fresh`: the script an empty SQLite store
 * takes instead of the migrations it stands for (freshSchema below; PostgreSQL never does).
 */
export async function migrate(
  store: Store,
  migrations: readonly Migration[],
  opts: { upTo?: number; fresh?: FreshSchema } = {},
): Promise<{ applied: number[] }> {
  const todo = migrations.filter((m) => m.version <= (opts.upTo ?? Number.POSITIVE_INFINITY));
  if (store.dialect !== 'sqlite') return run(store, todo, undefined);
  // The serving store keeps temporary data in memory (store/sqlite.ts). A migration may build an
  // index over a large table: its sort spills to a temporary file instead, as SQLite's default.
  // (The setting cannot change inside a transaction, so it wraps all of them.)
  const { rows } = await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(store.db);
  await sql`PRAGMA temp_store = FILE`.execute(store.db);
  try {
    return await run(store, todo, opts.fresh);
  } finally {
    await sql.raw(`PRAGMA temp_store = ${Number(rows[0]?.temp_store ?? 0)}`).execute(store.db);
  }
}

async function run(
  store: Store,
  todo: readonly Migration[],
  fresh: FreshSchema | undefined,
): Promise<{ applied: number[] }> {
  const applied = fresh === undefined ? [] : await freshSchema(store, todo, fresh);
  // The script recorded every one: nothing left to look up or apply.
  if (applied.length > 0 && applied.length === todo.length) return { applied };
  await store.schemaTransaction(async (trx) => {
    await lock(store, trx as unknown as Kysely<unknown>);
    await trx.schema
      .createTable('hostpay_migrations')
      .ifNotExists()
      .addColumn('version', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('applied_at', COLUMN_TYPES[store.dialect].time, (c) => c.notNull())
      .execute();
  });
  // What is recorded already, read once: a restart of a migrated store then opens no write
  // transaction per migration (35 of them, each a commit, to find nothing to do). Each one that
  // is missing is still looked up again under the lock, as another instance may apply it first.
  const recorded = new Set(
    (await store.db.selectFrom('hostpay_migrations').select('version').execute()).map((r) => Number(r.version)),
  );
  for (const migration of todo) {
    if (recorded.has(migration.version)) continue;
    const done = await store.schemaTransaction(async (trx) => {
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

/**
 * A fresh SQLite store takes the schema its migrations would build in one script
 * (src/sqlite-schema.ts): ~8 ms instead of ~70–200 ms for 35 migrations, each built through the
 * query layer in a transaction of its own, on every new server's start and every test's store.
 * Only when the script's migrations are the first of `todo`, under the same numbers and names
 * (so not for a store built `upTo` an earlier version); the runner then applies those after them
 * one by one. Returns the versions it applied.
 */
async function freshSchema(store: Store, todo: readonly Migration[], fresh: FreshSchema): Promise<number[]> {
  const squashed = fresh.migrations;
  if (store.createFreshSchema === undefined || squashed.length === 0 || squashed.length > todo.length) return [];
  if (!squashed.every(([version, name], i) => todo[i]!.version === version && todo[i]!.name === name)) return [];
  const at = new Date().toISOString();
  const rows = squashed.map(([version, name]) => `(${version}, ${literal(name)}, ${literal(at)})`);
  const script = [
    ...fresh.statements,
    `INSERT INTO "hostpay_migrations" ("version", "name", "applied_at") VALUES ${rows.join(', ')}`,
  ].join(';\n');
  return (await store.createFreshSchema(script)) ? squashed.map(([version]) => version) : [];
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The highest applied migration; 0 for a store never migrated. */
export async function schemaVersion(store: Store): Promise<number> {
  try {
    const row = await sql<{ v: number | null }>`select max(version) as v from hostpay_migrations`.execute(store.db);
    return Number(row.rows[0]?.v ?? 0);
  } catch {
    return 0;
  }
}
