import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../src/services.js';
import { LATEST_VERSION, MIGRATIONS, migrate, schemaVersion } from '../src/migrations.js';
import { KERNEL_MIGRATIONS, mergeMigrations, migrate as runMigrations, type Migration } from '../src/store/migrate.js';
import { dropPostgresSchema, openPostgresStore } from '../src/store/postgres.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { Store } from '../src/store/store.js';
import { DIALECTS, TEST_DATABASE_URL, type Dialect } from './helpers.js';

/**
 * The migrations as every release before features declared their own recorded them: a store
 * migrated by an earlier build must find the same versions under the same names.
 */
const RECORDED = [
  'initial',
  'reference-catalog',
  'operations',
  'signature-version',
  'checkouts',
  'webhooks',
  'evm-watch',
  'console-sessions',
  'chain-explorer',
  'idempotency-owner',
  'sealed-keys-urls',
  'rate-freshness',
  'rate-sources',
  'payouts',
  'hot-wallet',
  'rate-spread',
  'refund-links',
  'chain-watch',
  'merchant-users',
  'dashboard-self-service',
  'manual-payout-txs',
  'event-checkout-backfill',
  'hot-wallet-cancel',
  'used-signatures',
  'chain-watch-failures',
  'reports',
  'reconciliation',
  'checkout-origins',
  'seller-details',
  'mail',
  'payment-links',
  'invoices',
  'receipt-counters',
  'invoice-number-prefixes',
  'brand-and-language',
].map((name, i) => ({ version: i + 1, name }));

const step = (version: number, name: string): Migration => ({ version, name, up: async () => undefined });

describe('the merged list of migrations', () => {
  it("the kernel's and the registered features' migrations are versions 1..35 under the names stores recorded", () => {
    expect(MIGRATIONS.map(({ version, name }) => ({ version, name }))).toEqual(RECORDED);
    expect(LATEST_VERSION).toBe(35);
  });

  it('refuses at start-up two migrations of one version, naming both owners', () => {
    expect(() =>
      mergeMigrations([
        { owner: 'the kernel', migrations: [step(1, 'a'), step(2, 'b')] },
        { owner: 'feature "notes"', migrations: [step(2, 'notes')] },
      ]),
    ).toThrow('migration 2 is declared by the kernel ("b") and by feature "notes": one version, one migration');
  });

  it('refuses at start-up a missing version, naming the next one and its owner', () => {
    expect(() =>
      mergeMigrations([
        { owner: 'the kernel', migrations: [step(1, 'a')] },
        { owner: 'feature "notes"', migrations: [step(3, 'notes')] },
      ]),
    ).toThrow('no migration 2 (the next declared is 3, by feature "notes" ("notes")): versions run 1..n without gaps');
    expect(() => mergeMigrations([{ owner: 'feature "notes"', migrations: [step(2, 'notes')] }])).toThrow(
      /no migration 1/,
    );
  });

  it('orders by version whatever the order of the features', () => {
    const merged = mergeMigrations([
      { owner: 'feature "b"', migrations: [step(3, 'c'), step(2, 'b')] },
      { owner: 'the kernel', migrations: KERNEL_MIGRATIONS.filter((m) => m.version < 2).concat(step(1, 'a')) },
    ]);
    expect(merged.map((m) => m.name)).toEqual(['a', 'b', 'c']);
  });
});

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
    // A restart finds everything recorded with one read: no write transaction per migration.
    let writes = 0;
    // Migrations write through schemaTransaction (SQLite does not count them toward its checkpoint
    // worker); a write transaction of any other kind counts too.
    const writeTransaction = store.writeTransaction.bind(store);
    store.writeTransaction = (fn) => {
      writes++;
      return writeTransaction(fn);
    };
    const schemaTransaction = store.schemaTransaction.bind(store);
    store.schemaTransaction = (fn) => {
      writes++;
      return schemaTransaction(fn);
    };
    expect(await migrate(store)).toEqual({ applied: [] });
    expect(writes).toBe(1); // the migrations table's `create … if not exists`
    expect(await schemaVersion(store)).toBe(LATEST_VERSION);
    const recorded = await sql<{
      version: number;
      name: string;
    }>`select version, name from hostpay_migrations order by version`.execute(store.db);
    expect(recorded.rows.map((r) => ({ version: Number(r.version), name: r.name }))).toEqual(RECORDED);
  });

  it("a new feature's table and migration need nothing of store/: the runner applies what it is given", async () => {
    const { open } = await freshStore();
    const store = await open();
    await migrate(store);
    const notes: Migration = {
      version: LATEST_VERSION + 1,
      name: 'notes',
      up: (db, t) =>
        db.schema
          .createTable('notes')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('created_at', t.time, (c) => c.notNull())
          .execute(),
    };
    const merged = mergeMigrations([
      { owner: 'registered', migrations: MIGRATIONS },
      { owner: 'feature "notes"', migrations: [notes] },
    ]);
    expect(await runMigrations(store, merged)).toEqual({ applied: [LATEST_VERSION + 1] });
    await sql`insert into notes (id, created_at) values ('n1', ${new Date().toISOString()})`.execute(store.db);
    const rows = await sql<{ id: string }>`select id from notes`.execute(store.db);
    expect(rows.rows).toEqual([{ id: 'n1' }]);
    expect(await schemaVersion(store)).toBe(LATEST_VERSION + 1);
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
      // Step by step, as an existing store with large tables is migrated (a fresh one takes
      // src/sqlite-schema.ts in one script over empty tables).
      const watched: Store = {
        ...store,
        createFreshSchema: undefined,
        schemaTransaction: (fn) =>
          store.schemaTransaction(async (trx) => {
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
