import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupCommit, type WriteGate } from '../src/store/group-commit.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { Db, Store } from '../src/store/store.js';

/**
 * The SQLite store shares one COMMIT among the write transactions of one event-loop turn
 * (store/group-commit.ts). What callers rely on must still hold for each of them: all or nothing,
 * told "done" only once committed, serial results, one failure never taking another down.
 */
let dir: string;
let file: string;
let store: Store;
let commits = 0;

// Counts COMMIT statements run through better-sqlite3 (a spy on the real driver, which still runs them).
const prepare = BetterSqlite3.prototype.prepare;
BetterSqlite3.prototype.prepare = function (this: BetterSqlite3.Database, text: string) {
  const statement = prepare.call(this, text);
  if (/^\s*commit\b/i.test(text)) {
    const run = statement.run.bind(statement) as (...args: unknown[]) => BetterSqlite3.RunResult;
    statement.run = ((...args: unknown[]) => {
      commits++;
      return run(...args);
    }) as typeof statement.run;
  }
  return statement;
} as typeof prepare;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hostpay-group-commit-'));
  file = join(dir, 'store.db');
  store = openSqliteStore(file);
  await sql`create table counter (id integer primary key, n integer not null)`.execute(store.db);
  await sql`insert into counter (id, n) values (1, 0)`.execute(store.db);
  await sql`create table items (name text primary key)`.execute(store.db);
  // A deferred foreign key is checked at COMMIT, not at the savepoint's release: a way to make a COMMIT fail.
  await sql`create table refs (item text references items(name) deferrable initially deferred)`.execute(store.db);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const db = (trx: Db) => trx as unknown as Db;
const insertItem = (trx: Db, name: string) => sql`insert into items (name) values (${name})`.execute(db(trx));
const itemsInFile = (): string[] => {
  // A second connection sees only what is committed.
  const other = new BetterSqlite3(file, { readonly: true });
  try {
    return (other.prepare('select name from items order by name').all() as { name: string }[]).map((r) => r.name);
  } finally {
    other.close();
  }
};

describe('group commit on the embedded store', () => {
  it("keeps the savepoints' sub-journals in memory (temp_store = MEMORY), not in temporary files", async () => {
    const { rows } = await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(store.db);
    expect(rows[0]!.temp_store).toBe(2);
  });

  it('a caller is told "done" only when its change is committed and visible to another connection', async () => {
    const seen = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        store
          .writeTransaction(async (trx) => {
            await insertItem(trx, name);
            return name;
          })
          .then((n) => ({ n, visible: itemsInFile().includes(n) })),
      ),
    );
    expect(seen).toEqual([
      { n: 'a', visible: true },
      { n: 'b', visible: true },
      { n: 'c', visible: true },
    ]);
  });

  it('one failing transaction rolls back alone: the others of its batch commit and it gets its own error', async () => {
    const results = await Promise.allSettled([
      store.writeTransaction((trx) => insertItem(trx, 'kept-1')),
      store.writeTransaction(async (trx) => {
        await insertItem(trx, 'lost');
        throw new Error('refused by the caller');
      }),
      store.writeTransaction(async (trx) => {
        await insertItem(trx, 'kept-2');
        await insertItem(trx, 'kept-2'); // primary key violation: a store error, not a thrown value
      }),
      store.writeTransaction((trx) => insertItem(trx, 'kept-3')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(((results[1] as PromiseRejectedResult).reason as Error).message).toBe('refused by the caller');
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(itemsInFile()).toEqual(['kept-1', 'kept-3']);
  });

  it('when the shared COMMIT fails, every caller of the batch hears it and none of their changes exist', async () => {
    const results = await Promise.allSettled([
      store.writeTransaction((trx) => insertItem(trx, 'innocent')),
      store.writeTransaction(async (trx) => {
        await sql`insert into refs (item) values ('no such item')`.execute(db(trx));
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (const r of results)
      expect(String((r as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY constraint failed/);
    expect(itemsInFile()).toEqual([]);
    // The store is usable afterwards.
    await store.writeTransaction((trx) => insertItem(trx, 'after'));
    expect(itemsInFile()).toEqual(['after']);
  });

  it('read-check-write transactions stay serial: 200 concurrent increments give exactly 200', async () => {
    await Promise.all(
      Array.from({ length: 200 }, () =>
        store.writeTransaction(async (trx) => {
          const row = (await sql<{ n: number }>`select n from counter where id = 1`.execute(db(trx))).rows[0]!;
          await new Promise((r) => setImmediate(r)); // real asynchrony inside the transaction
          await sql`update counter set n = ${row.n + 1} where id = 1`.execute(db(trx));
        }),
      ),
    );
    const n = (await sql<{ n: number }>`select n from counter where id = 1`.execute(store.db)).rows[0]!.n;
    expect(n).toBe(200);
  });

  it('concurrent transactions share commits (fewer COMMITs than transactions), sequential ones do not wait for company', async () => {
    commits = 0;
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.writeTransaction((trx) => insertItem(trx, `c${i}`))));
    expect(itemsInFile()).toHaveLength(50);
    expect(commits).toBeGreaterThanOrEqual(1);
    expect(commits).toBeLessThan(50);
    commits = 0;
    for (const name of ['s1', 's2', 's3']) await store.writeTransaction((trx) => insertItem(trx, name));
    expect(commits).toBe(3);
    // A lone transaction completes by itself (no waiting for a batch to fill).
    const started = Date.now();
    await store.writeTransaction((trx) => insertItem(trx, 'alone'));
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('group commit behind a write gate (the WAL checkpointer’s moment without writers)', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  function gated() {
    const raw = new BetterSqlite3(join(dir, 'gated.db'));
    raw.exec('create table items (name text primary key)');
    const kdb = new Kysely<never>({ dialect: new SqliteDialect({ database: raw }) }) as unknown as Db;
    const gate = { open: false, entered: 0, left: 0, wanted: false, order: [] as string[] };
    const write = groupCommit(kdb as never, () => raw.inTransaction, {
      enter: () => gate.open && ++gate.entered > 0 && gate.order.push('enter') > 0,
      leave: () => void gate.left++,
      wanted: () => gate.wanted,
    } satisfies WriteGate);
    const names = () =>
      (raw.prepare('select name from items order by name').all() as { name: string }[]).map((r) => r.name);
    return { raw, kdb, gate, write, names };
  }

  it('waits on a timer while the gate is closed (the event loop runs on), then commits what queued meanwhile in one batch', async () => {
    const { raw, kdb, gate, write, names } = gated();
    const settled: string[] = [];
    const before = commits;
    const a = write((trx) => insertItem(trx, 'a')).then(() => settled.push('a'));
    await sleep(20);
    // Arrives while the first waits: joins the same batch.
    const b = write((trx) => insertItem(trx, 'b')).then(() => settled.push('b'));
    await sleep(10);
    expect(names()).toEqual([]);
    expect(settled).toEqual([]);
    expect(gate.entered).toBe(0);
    gate.open = true;
    await Promise.all([a, b]);
    await new Promise((r) => setImmediate(r));
    expect(names()).toEqual(['a', 'b']);
    expect(commits - before).toBe(1);
    expect([gate.entered, gate.left]).toEqual([1, 1]);
    await kdb.destroy();
    expect(raw.open).toBe(false);
  });

  it('gives the gate back after a batch whose COMMIT fails, and the next batch enters again', async () => {
    const { kdb, gate, write, names } = gated();
    gate.open = true;
    await sql`create table refs (item text references items(name) deferrable initially deferred)`.execute(kdb);
    await sql`PRAGMA foreign_keys = ON`.execute(kdb);
    await expect(write((trx) => sql`insert into refs (item) values ('nowhere')`.execute(db(trx)))).rejects.toThrow(
      /FOREIGN KEY/,
    );
    await new Promise((r) => setImmediate(r));
    expect([gate.entered, gate.left]).toEqual([1, 1]);
    await write((trx) => insertItem(trx, 'after'));
    await new Promise((r) => setImmediate(r));
    expect(names()).toEqual(['after']);
    expect([gate.entered, gate.left]).toEqual([2, 2]);
    await kdb.destroy();
  });

  it('lets a waiting party in between two batches of a backlog: the next batch starts a turn later', async () => {
    const { kdb, gate, write, names } = gated();
    gate.open = true;
    const run = async (wanted: boolean) => {
      gate.wanted = wanted;
      gate.order = [];
      // 100 writes in one turn: two batches (at most 64 each).
      const writes = Array.from({ length: 100 }, (_, i) =>
        write((trx) => insertItem(trx, `${wanted}-${String(i).padStart(3, '0')}`)),
      );
      setImmediate(() => gate.order.push('turn'));
      await Promise.all(writes);
      await new Promise((r) => setImmediate(r));
      return gate.order;
    };
    expect(await run(false)).toEqual(['enter', 'enter', 'turn']);
    expect(await run(true)).toEqual(['enter', 'turn', 'enter']);
    expect(names()).toHaveLength(200);
    await kdb.destroy();
  });
});
