import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../src/services.js';
import { LATEST_VERSION, MIGRATIONS, migrate, schemaVersion } from '../src/store/migrate.js';
import { dropPostgresSchema, openPostgresStore } from '../src/store/postgres.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { Store } from '../src/store/store.js';
import { DIALECTS, TEST_DATABASE_URL, type Dialect } from './helpers.js';

describe.each(DIALECTS)('migrations on %s', (dialect: Dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A fresh, empty store, and a function that opens another connection to the same one. */
  async function freshStore(): Promise<{ open: () => Promise<Store>; dataDir: string; schema: string }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-mig-'));
    const schema = `hp_test_${randomBytes(6).toString('hex')}`;
    cleanups.push(async () => {
      rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
    });
    const open = async () => {
      const store =
        dialect === 'sqlite'
          ? openSqliteStore(join(dataDir, 'hostpay.db'))
          : await openPostgresStore(TEST_DATABASE_URL, { schema });
      cleanups.push(() => store.close());
      return store;
    };
    return { open, dataDir, schema };
  }

  it('applies every migration once; running again is a no-op', async () => {
    const { open } = await freshStore();
    const store = await open();
    expect(await schemaVersion(store)).toBe(0);
    expect(await migrate(store)).toEqual({ applied: MIGRATIONS.map((m) => m.version) });
    expect(await migrate(store)).toEqual({ applied: [] });
    expect(await schemaVersion(store)).toBe(LATEST_VERSION);
  });

  // PostgreSQL only: two SQLite connections in one process would block each other's event loop
  // (better-sqlite3 waits synchronously); across processes SQLite's BEGIN IMMEDIATE serialises.
  if (dialect === 'postgres')
    it('two instances migrating at once apply each migration exactly once', async () => {
      const { open } = await freshStore();
      const [a, b] = await Promise.all([open(), open()]);
      const results = await Promise.all([migrate(a), migrate(b)]);
      expect(results.flatMap((r) => r.applied).sort((a, b) => a - b)).toEqual(MIGRATIONS.map((m) => m.version));
    });

  it('with automatic migrations off, refuses to start on an unmigrated store, then starts after migrate', async () => {
    const { open, dataDir } = await freshStore();
    const config = { dataDir, databaseUrl: '', masterKey: randomBytes(32).toString('base64'), autoMigrate: false };
    await expect(createServices(config, { store: await open() })).rejects.toThrow(/hostpay migrate/);
    await migrate(await open());
    const services = await createServices(config, { store: await open() });
    expect((await services.admin.listMerchants({})).items).toEqual([]);
  });
});

describe('migrations on sqlite', () => {
  it('sort and temporary data spill to files while migrating (an index over a large table), in memory again after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostpay-migrate-temp-'));
    const store = openSqliteStore(join(dir, 'store.db'));
    try {
      const seen: number[] = [];
      const watched: Store = {
        ...store,
        writeTransaction: (fn) =>
          store.writeTransaction(async (trx) => {
            seen.push(Number((await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(trx)).rows[0]!.temp_store));
            return fn(trx);
          }),
      };
      await migrate(watched);
      expect(seen.length).toBeGreaterThan(MIGRATIONS.length);
      expect(new Set(seen)).toEqual(new Set([1]));
      expect(Number((await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(store.db)).rows[0]!.temp_store)).toBe(
        2,
      );
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
