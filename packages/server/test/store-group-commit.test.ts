import BetterSqlite3 from 'better-sqlite3';
import { Kysely, type QueryResult, SqliteDialect, sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupCommit, type WriteGate } from '../src/store/group-commit.js';
import { sqliteConnection } from './sqlite-connection.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import { runStepsNow, type Steps, type SyncTrx } from '../src/store/steps.js';
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
let savepoints = 0;

// Counts COMMIT and SAVEPOINT statements run through better-sqlite3 (a spy on the real driver, which still runs them).
const prepare = BetterSqlite3.prototype.prepare;
BetterSqlite3.prototype.prepare = function (this: BetterSqlite3.Database, text: string) {
  const statement = prepare.call(this, text);
  const isCommit = /^\s*commit\b/i.test(text);
  if (isCommit || /^\s*savepoint\b/i.test(text)) {
    const run = statement.run.bind(statement) as (...args: unknown[]) => BetterSqlite3.RunResult;
    statement.run = ((...args: unknown[]) => {
      if (isCommit) commits++;
      else savepoints++;
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

describe('write paths made of steps (store/steps.ts): synchronous inside the group commit', () => {
  function* insertSteps(names: string[]): Steps<number> {
    for (const name of names) yield sql`insert into items (name) values (${name})`;
    const counted: QueryResult<{ n: number }> = yield sql`select count(*) as n from items`;
    return Number(counted.rows[0]!.n);
  }

  it('a batch of them runs from BEGIN to COMMIT without a tick, shares one COMMIT with the awaited kind, and each sees those before it', async () => {
    const before = commits;
    const order: string[] = [];
    const writes = [
      store.writeSteps(function* () {
        queueMicrotask(() => order.push('tick'));
        const n = yield* insertSteps(['s1', 's2']);
        order.push('first steps done');
        return n;
      }),
      store.writeTransaction(async (trx) => {
        order.push('awaited');
        await insertItem(trx, 'a1');
        return -1;
      }),
      store.writeSteps(() => {
        order.push('steps');
        return insertSteps(['s3']);
      }),
    ];
    const counts = await Promise.all(writes);
    expect(counts).toEqual([2, -1, 4]);
    expect(itemsInFile()).toEqual(['a1', 's1', 's2', 's3']);
    expect(commits - before).toBe(1);
    // The first steps' three statements ran before the microtask queued at their start: no tick
    // between them; it ran once the awaited transaction awaited its statement.
    expect(order).toEqual(['first steps done', 'awaited', 'tick', 'steps']);
  });

  it('one that fails rolls back alone, whether it throws or a statement fails; a step may catch a failed statement and go on', async () => {
    const results = await Promise.allSettled([
      store.writeSteps(() => insertSteps(['kept-1'])),
      store.writeSteps(function* () {
        yield sql`insert into items (name) values ('lost')`;
        throw new Error('refused by the caller');
      }),
      store.writeSteps(() => insertSteps(['kept-2', 'kept-2'])),
      store.writeSteps(function* () {
        yield sql`insert into items (name) values ('kept-3')`;
        try {
          yield sql`insert into items (name) values ('kept-3')`;
        } catch (err) {
          return String(err);
        }
        return 'no error';
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(((results[1] as PromiseRejectedResult).reason as Error).message).toBe('refused by the caller');
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect((results[3] as PromiseFulfilledResult<string>).value).toMatch(/UNIQUE constraint failed/);
    expect(itemsInFile()).toEqual(['kept-1', 'kept-3']);
  });

  it('consecutive ones share one savepoint: when one fails, those before it run again, made anew, and only their second run is kept', async () => {
    const runs = new Map<string, number>();
    const counted = (name: string) =>
      store.writeSteps(function* () {
        const run = (runs.get(name) ?? 0) + 1;
        runs.set(name, run);
        yield sql`insert into items (name) values (${`${name}#${run}`})`;
        return run;
      });
    const results = await Promise.allSettled([
      counted('a'),
      counted('b'),
      store.writeSteps(function* () {
        yield sql`insert into items (name) values ('doomed')`;
        yield sql`insert into refs (item) values ('doomed')`;
        yield sql`insert into items (name) values ('doomed')`; // primary key violation
      }),
      counted('c'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'error'))).toEqual([2, 2, 'error', 1]);
    expect(Object.fromEntries(runs)).toEqual({ a: 2, b: 2, c: 1 });
    expect(itemsInFile()).toEqual(['a#2', 'b#2', 'c#1']);
  });

  it('a run that opens the transaction takes no savepoint (a failure rolls the transaction back); after a kept write it takes one, and a failure loses neither', async () => {
    const doomed = () =>
      store.writeSteps(function* () {
        yield sql`insert into items (name) values ('doomed')`;
        yield sql`insert into items (name) values ('doomed')`; // primary key violation
      });
    const named = (name: string) => store.writeSteps(() => insertSteps([name]));
    savepoints = 0;
    const opening = await Promise.allSettled([named('open-a'), doomed(), named('open-b')]);
    expect(opening.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((opening[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(savepoints).toBe(0);
    expect(itemsInFile()).toEqual(['open-a', 'open-b']);

    savepoints = 0;
    const after = await Promise.allSettled([
      store.writeTransaction((trx) => insertItem(trx, 'awaited')),
      named('later-a'),
      doomed(),
      named('later-b'),
    ]);
    expect(after.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    // The awaited write's own, the run's, and the run's again after its failure.
    expect(savepoints).toBe(3);
    expect(itemsInFile()).toEqual(['awaited', 'later-a', 'later-b', 'open-a', 'open-b']);
  });

  it('read-check-write stays serial: 200 concurrent increments made of steps give exactly 200', async () => {
    await Promise.all(
      Array.from({ length: 200 }, () =>
        store.writeSteps(function* () {
          const read: QueryResult<{ n: number }> = yield sql`select n from counter where id = 1`;
          yield sql`update counter set n = ${read.rows[0]!.n + 1} where id = 1`;
        }),
      ),
    );
    const n = (await sql<{ n: number }>`select n from counter where id = 1`.execute(store.db)).rows[0]!.n;
    expect(n).toBe(200);
  });
});

describe('a failure that ends the whole transaction (SQLite rolls back on a full disk or an I/O error)', () => {
  /** A file of its own, and a connection over it that fails as `fail` says (else runs the statement). */
  function endedStore(name: string, fail: (text: string, parameters: readonly unknown[]) => void) {
    const raw = new BetterSqlite3(join(dir, name));
    raw.exec('create table items (name text primary key)');
    const kdb = new Kysely<never>({ dialect: new SqliteDialect({ database: raw }) }) as unknown as Db;
    const connection = sqliteConnection(raw, fail);
    return { raw, kdb, commit: groupCommit(kdb as never, connection) };
  }
  // What SQLITE_FULL does to a transaction, on the statement that names 'full'.
  const fullOn = (raw: () => BetterSqlite3.Database) => (_text: string, parameters: readonly unknown[]) => {
    if (parameters.includes('full')) {
      raw().exec('ROLLBACK');
      throw new Error('database or disk is full');
    }
  };

  /** A store whose statement naming 'full' fails as a full disk does. */
  function fullStore(name: string) {
    let file: BetterSqlite3.Database | undefined;
    const made = endedStore(
      name,
      fullOn(() => file!),
    );
    file = made.raw;
    return made;
  }

  it('in a run of synchronous writes: the failed one hears its error, what the batch did before hears it too, the rest run again in a new transaction and every caller is answered', async () => {
    const { raw, kdb, commit } = fullStore('ended.db');
    const { writeTransaction, writeNow } = commit;
    const insertNow = (name: string) => (trx: SyncTrx) =>
      runStepsNow(
        trx,
        (function* () {
          yield sql`insert into items (name) values (${name})`;
          return name;
        })(),
      );
    const settled = await Promise.race([
      Promise.allSettled([
        writeTransaction((trx) => insertItem(trx, 'before')),
        writeNow(insertNow('a')),
        writeNow(insertNow('full')),
        writeNow(insertNow('b')),
      ]),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 2_000)),
    ]);
    expect(settled).not.toBe('hung');
    const results = settled as PromiseSettledResult<unknown>[];
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)))).toEqual([
      'Error: database or disk is full',
      'a',
      'Error: database or disk is full',
      'b',
    ]);
    expect(
      (raw.prepare('select name from items order by name').all() as { name: string }[]).map((r) => r.name),
    ).toEqual(['a', 'b']);
    await kdb.destroy();
  });

  it('when a savepoint step itself fails, every caller of the batch hears it (none is left waiting)', async () => {
    let savepoints = 0;
    const { raw, kdb, commit } = endedStore('savepoint.db', (text) => {
      if (text.startsWith('SAVEPOINT') && ++savepoints === 2) throw new Error('savepoint refused');
    });
    const { writeTransaction } = commit;
    const settled = await Promise.race([
      Promise.allSettled([
        writeTransaction((trx) => insertItem(trx, 'first')),
        writeTransaction((trx) => insertItem(trx, 'second')),
        writeTransaction((trx) => insertItem(trx, 'third')),
      ]),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 2_000)),
    ]);
    expect(settled).not.toBe('hung');
    expect((settled as PromiseSettledResult<unknown>[]).map((r) => r.status)).toEqual([
      'rejected',
      'rejected',
      'rejected',
    ]);
    expect(raw.prepare('select count(*) as n from items').get()).toEqual({ n: 0 });
    await kdb.destroy();
  });

  it('a write that catches that failure and goes on writes nothing outside the transaction', async () => {
    const { raw, kdb, commit } = fullStore('caught.db');
    const { writeNow } = commit;
    const outcome = await writeNow((trx) =>
      runStepsNow(
        trx,
        (function* () {
          try {
            yield sql`insert into items (name) values (${'full'})`;
          } catch {}
          yield sql`insert into items (name) values ('outside')`;
        })(),
      ),
    ).then(
      () => 'kept',
      (err: unknown) => String(err),
    );
    expect(outcome).toBe('Error: the write transaction ended: this write is not kept');
    expect(raw.prepare('select count(*) as n from items').get()).toEqual({ n: 0 });
    await kdb.destroy();
  });

  it('a write that catches that failure and returns is not answered "done", nor is any other of its run', async () => {
    const { raw, kdb, commit } = fullStore('caught-returned.db');
    const { writeNow } = commit;
    const insertNow = (name: string, catchIt: boolean) => (trx: SyncTrx) =>
      runStepsNow(
        trx,
        (function* () {
          try {
            yield sql`insert into items (name) values (${name})`;
          } catch {
            if (!catchIt) throw new Error('not caught');
          }
          return name;
        })(),
      );
    // One run that opens its transaction: no savepoint whose RELEASE would refuse.
    const results = await Promise.allSettled([writeNow(insertNow('before', false)), writeNow(insertNow('full', true))]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)))).toEqual([
      'Error: the write transaction ended: this batch is not kept',
      'Error: the write transaction ended: this batch is not kept',
    ]);
    expect(raw.prepare('select count(*) as n from items').get()).toEqual({ n: 0 });
    await kdb.destroy();
  });
});

describe('group commit behind a write gate (the WAL checkpointer’s moment without writers)', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  function gated() {
    const raw = new BetterSqlite3(join(dir, 'gated.db'));
    raw.exec('create table items (name text primary key)');
    const kdb = new Kysely<never>({ dialect: new SqliteDialect({ database: raw }) }) as unknown as Db;
    const gate = { open: false, entered: 0, left: 0, wanted: false, order: [] as string[] };
    const connection = sqliteConnection(raw);
    const write = groupCommit(kdb as never, connection, {
      enter: () => gate.open && ++gate.entered > 0 && gate.order.push('enter') > 0,
      leave: () => void gate.left++,
      wanted: () => gate.wanted,
    } satisfies WriteGate).writeTransaction;
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
