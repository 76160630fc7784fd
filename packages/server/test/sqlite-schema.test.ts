import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../src/migrations.js';
import { migrate as runMigrations, type Migration } from '../src/store/migrate.js';
import { SQLITE_SCHEMA } from '../src/sqlite-schema.js';
import { dumpSqliteSchema } from '../src/store/sqlite-squash.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { Store } from '../src/store/store.js';

/**
 * A fresh SQLite store takes its whole schema from src/sqlite-schema.ts in one step. These
 * tests hold that store to the one the migrations build one by one (the way every existing store
 * was built), object for object and row for row.
 */
const stores: Store[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(file = ':memory:'): Store {
  const store = openSqliteStore(file);
  stores.push(store);
  return store;
}

/** The store as the migrations alone build it: without createFreshSchema the runner applies each (as for PostgreSQL). */
function stepByStep(store: Store): Store {
  return { ...store, createFreshSchema: undefined };
}

/** Everything a store holds that the schema decides: objects, rows, sequences and user_version. */
async function contents(db: Kysely<unknown>) {
  const objects = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
    select type, name, tbl_name, sql from sqlite_master order by type, name`.execute(db);
  const rows: Record<string, unknown[]> = {};
  for (const { name, sql: ddl } of objects.rows.filter((o) => o.type === 'table')) {
    // With the rowid where there is one: the same rows in the same order, as a query without
    // ORDER BY reads them.
    const all = /without\s+rowid/i.test(ddl ?? '')
      ? await sql<Record<string, unknown>>`select * from ${sql.table(name)} order by 1`.execute(db)
      : await sql<Record<string, unknown>>`select rowid as "(rowid)", * from ${sql.table(name)} order by rowid`.execute(
          db,
        );
    // When each migration was applied belongs to the store that applied it.
    rows[name] = all.rows.map(({ applied_at, ...rest }) =>
      name === 'hostpay_migrations' ? rest : { applied_at, ...rest },
    );
  }
  const version = await sql<{ user_version: number }>`pragma user_version`.execute(db);
  return { objects: objects.rows, rows, userVersion: version.rows[0]?.user_version };
}

describe('the SQLite schema of a fresh store (src/sqlite-schema.ts)', () => {
  it('is what the migrations build, as npm run schema:sqlite writes it', async () => {
    const store = open();
    await migrate(stepByStep(store));
    const statements = await dumpSqliteSchema(store.db as unknown as Kysely<unknown>);
    const current = { migrations: MIGRATIONS.map((m) => [m.version, m.name]), statements };
    expect(
      SQLITE_SCHEMA,
      'src/sqlite-schema.ts is stale: run `npm run schema:sqlite` after changing a migration',
    ).toEqual(current);
  });

  it('a fresh store built from it holds the same objects, rows and pragmas as one migrated step by step', async () => {
    const squashed = open();
    const migrated = open();
    expect(await migrate(squashed)).toEqual({ applied: MIGRATIONS.map((m) => m.version) });
    expect(await migrate(stepByStep(migrated))).toEqual({ applied: MIGRATIONS.map((m) => m.version) });
    const a = await contents(squashed.db as unknown as Kysely<unknown>);
    const b = await contents(migrated.db as unknown as Kysely<unknown>);
    expect(a.objects.length).toBeGreaterThan(100);
    expect(a.rows['networks']?.length).toBeGreaterThan(0);
    expect(a.rows['hostpay_migrations']).toHaveLength(MIGRATIONS.length);
    expect(a).toEqual(b);
  });

  it('runs no migration of its own on a fresh store, and those after it one by one', async () => {
    const calls: number[] = [];
    const watched: Migration[] = MIGRATIONS.map((m) => ({ ...m, up: (db, t) => (calls.push(m.version), m.up(db, t)) }));
    const next: Migration = {
      version: MIGRATIONS.length + 1,
      name: 'notes',
      up: async (db) => {
        calls.push(MIGRATIONS.length + 1);
        await db.schema
          .createTable('notes')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .execute();
      },
    };
    const store = open();
    const result = await runMigrations(store, [...watched, next], { fresh: SQLITE_SCHEMA });
    expect(result.applied).toEqual([...MIGRATIONS.map((m) => m.version), next.version]);
    expect(calls).toEqual([next.version]);
  });

  it('is not used for a store that has tables: an older store is migrated step by step to the same place', async () => {
    const older = open();
    await migrate(older, { upTo: 20 });
    const calls: number[] = [];
    const watched = MIGRATIONS.map((m) => ({
      ...m,
      up: (db: never, t: never) => (calls.push(m.version), m.up(db, t)),
    }));
    expect((await runMigrations(older, watched, { fresh: SQLITE_SCHEMA })).applied).toEqual(
      MIGRATIONS.slice(20).map((m) => m.version),
    );
    expect(calls).toEqual(MIGRATIONS.slice(20).map((m) => m.version));
    const fresh = open();
    await migrate(fresh);
    expect(await contents(older.db as unknown as Kysely<unknown>)).toEqual(
      await contents(fresh.db as unknown as Kysely<unknown>),
    );
  });

  it('is not used when the migrations differ from the ones it was made from', async () => {
    const renamed = MIGRATIONS.map((m) => (m.version === 3 ? { ...m, name: 'renamed' } : m));
    const store = open();
    let fresh = 0;
    const create = store.createFreshSchema!.bind(store);
    await runMigrations({ ...store, createFreshSchema: (s) => (fresh++, create(s)) }, renamed, {
      fresh: SQLITE_SCHEMA,
    });
    expect(fresh).toBe(0);
    const names = await sql<{ name: string }>`select name from hostpay_migrations where version = 3`.execute(store.db);
    expect(names.rows).toEqual([{ name: 'renamed' }]);
  });

  it('two stores opening one new file at once: one builds the schema, the other finds it built', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostpay-squash-'));
    dirs.push(dir);
    const [a, b] = [open(join(dir, 'hostpay.db')), open(join(dir, 'hostpay.db'))];
    const results = await Promise.all([migrate(a), migrate(b)]);
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, MIGRATIONS.length]);
    const recorded = await sql<{ n: number }>`select count(*) as n from hostpay_migrations`.execute(b.db);
    expect(recorded.rows[0]!.n).toBe(MIGRATIONS.length);
  });

  it('a script that fails part-way leaves the store empty, and migrating then builds it whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostpay-squash-'));
    dirs.push(dir);
    const store = open(join(dir, 'hostpay.db'));
    await expect(store.createFreshSchema!('create table a (x integer); create table b (y nonsense(;')).rejects.toThrow(
      /syntax error/,
    );
    const left = await sql<{ n: number }>`select count(*) as n from sqlite_master`.execute(store.db);
    expect(left.rows[0]!.n).toBe(0);
    expect((await migrate(store)).applied).toHaveLength(MIGRATIONS.length);
    // A restart of the built store: no second schema, nothing applied.
    expect(await store.createFreshSchema!('create table c (z integer)')).toBe(false);
    expect(await migrate(store)).toEqual({ applied: [] });
  });
});
