import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow, prepared } from '../src/store/prepared.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { Db, Store } from '../src/store/store.js';

/**
 * Hot statements are compiled by Kysely once and run again with new values (store/prepared.ts).
 * What must hold: the text and parameters are what building the query again gives, constants the
 * query holds stay in place, a placeholder used for the query's shape is refused, and undefined
 * values are left out as Kysely leaves them out.
 */
let store: Store;
let db: Db;

beforeAll(async () => {
  store = openSqliteStore(':memory:');
  db = store.db;
  await sql`create table counters (id text primary key, n integer not null, label text)`.execute(db);
});
afterAll(async () => {
  await store.close();
});

describe('prepared statements', () => {
  const bump = prepared(['id', 'by'], (d, v) =>
    d
      .updateTable('counters' as never)
      .set((eb: never) => ({ n: (eb as (a: string, op: string, b: unknown) => unknown)('n', '+', v.by) }) as never)
      .where('id' as never, '=', v.id as never)
      .where('n' as never, '<', 1000 as never)
      .returning(['id', 'n'] as never),
  );

  it('sends each call its own values, in the places Kysely put them, with the query’s constants kept', async () => {
    await insertRow(db, 'counters' as never, { id: 'a', n: 1, label: null } as never);
    await insertRow(db, 'counters' as never, { id: 'b', n: 10, label: 'x' } as never);
    expect((await bump(db, { id: 'a', by: 5 })).rows).toEqual([{ id: 'a', n: 6 }]);
    expect((await bump(db, { id: 'b', by: 7 })).rows).toEqual([{ id: 'b', n: 17 }]);
    // The constant 1000 of the query is still a parameter: a counter at or past it is not bumped.
    await sql`update counters set n = 1000 where id = 'a'`.execute(db);
    expect((await bump(db, { id: 'a', by: 1 })).rows).toEqual([]);
  });

  it('compiles once per database and gives the text a fresh build gives', async () => {
    let builds = 0;
    const q = prepared(['id'], (d, v) => {
      builds++;
      return d
        .selectFrom('counters' as never)
        .select('n' as never)
        .where('id' as never, '=', v.id as never);
    });
    const fresh = db
      .selectFrom('counters' as never)
      .select('n' as never)
      .where('id' as never, '=', 'b' as never)
      .compile();
    const first = await q(db, { id: 'b' });
    await q(db, { id: 'a' });
    // A transaction shares the database's compiled text.
    await store.writeTransaction((trx) => q(trx, { id: 'b' }));
    expect(builds).toBe(1);
    const again = await db.executeQuery(fresh);
    expect(first.rows).toEqual(again.rows);
  });

  it('refuses a placeholder that is not used as a value', async () => {
    const shapeOnly = prepared(['id', 'limit'], (d, v) =>
      d
        .selectFrom('counters' as never)
        .select('n' as never)
        .where('id' as never, '=', v.id as never),
    );
    await expect(shapeOnly(db, { id: 'a', limit: 3 })).rejects.toThrow(/never uses limit/);
  });

  it('inserts a row’s columns in its key order and leaves out undefined ones', async () => {
    await insertRow(db, 'counters' as never, { label: 'late', n: 3, id: 'c' } as never);
    await insertRow(db, 'counters' as never, { id: 'd', n: 4, label: undefined } as never);
    const rows = await sql<{
      id: string;
      n: number;
      label: string | null;
    }>`select id, n, label from counters where id in ('c', 'd') order by id`.execute(db);
    expect(rows.rows).toEqual([
      { id: 'c', n: 3, label: 'late' },
      { id: 'd', n: 4, label: null },
    ]);
  });

  it('a table’s shapes alternating (the last one is remembered) each insert their own columns', async () => {
    const shapes = [
      { id: 'e1', n: 1, label: 'one' },
      { id: 'e2', n: 2 },
      { id: 'e3', n: 3, label: undefined },
      { n: 4, id: 'e4', label: 'four' },
      { id: 'e5', n: 5, label: 'five' },
      { id: 'e6', label: 'six', n: 6 },
    ];
    for (const row of shapes) await insertRow(db, 'counters' as never, row as never);
    const rows = await sql<{
      id: string;
      n: number;
      label: string | null;
    }>`select id, n, label from counters where id like 'e%' order by id`.execute(db);
    expect(rows.rows).toEqual(shapes.map((r) => ({ id: r.id, n: r.n, label: r.label ?? null })));
  });
});
