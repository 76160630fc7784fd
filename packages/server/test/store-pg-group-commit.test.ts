import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexBlocks, BLOCK } from '../src/features/addresses/index-blocks.js';
import { pgGroupCommit } from '../src/store/pg-group-commit.js';
import { dropPostgresSchema, openPostgresStore } from '../src/store/postgres.js';
import type { Db, Store } from '../src/store/store.js';
import { isStoreBusy, isStoreUnavailable } from '../src/store/unavailable.js';
import { postgresAvailable, TEST_DATABASE_URL } from './helpers.js';

/**
 * PostgreSQL group commit (store/pg-group-commit.ts): the writes of one event-loop turn as one
 * statement, with the SQLite group commit's promises — all or nothing per write, told "done" only
 * once committed, one failing write never taking another down — and the store being down heard by
 * everyone as such. And the key's derivation indices taken in blocks (index-blocks.ts): never one twice.
 */
describe.runIf(postgresAvailable)('PostgreSQL group commit', () => {
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  let store: Store;
  let other: Store;
  const statements: number[] = [];

  // One multi-row insert per batch; a duplicate name fails the statement (and, alone, its item).
  const insertNames = async (db: Db, names: string[]) => {
    statements.push(names.length);
    await db.executeQuery(
      CompiledQuery.raw('insert into names select * from json_populate_recordset(null::names, $1::json)', [
        JSON.stringify(names.map((name) => ({ name }))),
      ]),
    );
  };
  const visible = async (name: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from names where name = ${name}`.execute(other.db)).rows[0]!.n;

  beforeAll(async () => {
    store = await openPostgresStore(TEST_DATABASE_URL, { schema });
    other = await openPostgresStore(TEST_DATABASE_URL, { schema });
    await sql`create table names (name text primary key)`.execute(store.db);
    await sql`create table account_keys (id text primary key, xpub_sealed text not null, next_index integer not null)`.execute(
      store.db,
    );
  });
  afterAll(async () => {
    await store?.close();
    await other?.close();
    await dropPostgresSchema(TEST_DATABASE_URL, schema);
  });

  it('the writes of one turn are one statement, and each is answered only once another connection sees it', async () => {
    const write = pgGroupCommit(store.db, insertNames);
    statements.length = 0;
    const names = Array.from({ length: 20 }, (_, i) => `turn-${i}`);
    const seenWhenAnswered = await Promise.all(names.map((n) => write(n).then(() => visible(n))));
    expect(seenWhenAnswered).toEqual(names.map(() => 1));
    expect(statements).toEqual([20]);
  });

  describe('a statement prepared per connection (`prepared`)', () => {
    const inlineText = (names: string[]) =>
      `insert into names select * from json_populate_recordset(null::names, $j$${JSON.stringify(names.map((name) => ({ name })))}$j$::json)`;
    /** Counts what the group commit asks for: each PREPARE, each EXECUTE, each inlined statement. */
    function counted(prepare: string, name: string) {
      const asked = { prepare: 0, execute: 0, inline: 0 };
      const write = pgGroupCommit(store.db, insertNames, {
        inline: (names: string[]) => {
          asked.inline++;
          return inlineText(names);
        },
        prepared: {
          get prepare() {
            asked.prepare++;
            return prepare;
          },
          execute: (names: string[]) => {
            asked.execute++;
            return `execute ${name} ($j$${JSON.stringify(names.map((n) => ({ name: n })))}$j$)`;
          },
        },
      });
      return { asked, write };
    }

    it('is prepared on a connection that lacks it, then only executed: every batch written once', async () => {
      const { asked, write } = counted(
        'prepare hp_test_names (json) as insert into names select * from json_populate_recordset(null::names, $1)',
        'hp_test_names',
      );
      for (let round = 0; round < 6; round++) {
        const names = Array.from({ length: 5 }, (_, i) => `prep-${round}-${i}`);
        await Promise.all(names.map((n) => write(n)));
        for (const n of names) expect(await visible(n)).toBe(1);
      }
      // Six batches; a PREPARE only for a connection that had not seen it (the pool has ten).
      expect(asked.prepare).toBeGreaterThanOrEqual(1);
      expect(asked.prepare).toBeLessThanOrEqual(6);
      expect(asked.execute).toBe(6 + asked.prepare);
      expect(asked.inline).toBe(0);
      const again = asked.prepare;
      await write('prep-last');
      // Round robin or not, a connection once given it is never given it again: at most one more.
      expect(asked.prepare - again).toBeLessThanOrEqual(1);
    });

    it('a PREPARE that fails costs that batch the inlined statement only: the next batch tries the prepared one again', async () => {
      const { asked, write } = counted('prepare hp_test_broken (json) as this is not sql', 'hp_test_broken');
      await write('broken-1');
      expect(await visible('broken-1')).toBe(1);
      expect(asked).toEqual({ prepare: 1, execute: 1, inline: 1 });
      await write('broken-2');
      expect(await visible('broken-2')).toBe(1);
      expect(asked).toEqual({ prepare: 2, execute: 2, inline: 2 });
    });

    it('where it cannot be found after preparing (a pooler between), the inlined statement is used from then on', async () => {
      // Prepares under another name: the EXECUTE keeps failing with 26000, writing nothing.
      const { asked, write } = counted(
        'prepare hp_test_elsewhere (json) as insert into names select * from json_populate_recordset(null::names, $1)',
        'hp_test_never_prepared',
      );
      await Promise.all(['lost-1', 'lost-2'].map((n) => write(n)));
      expect(await visible('lost-1')).toBe(1);
      expect(await visible('lost-2')).toBe(1);
      expect(asked).toEqual({ prepare: 1, execute: 2, inline: 1 });
      await write('lost-3');
      expect(await visible('lost-3')).toBe(1);
      expect(asked).toEqual({ prepare: 1, execute: 2, inline: 2 });
    });
  });

  it('a write that fails fails alone: the others of its batch commit, one by one in savepoints of one transaction', async () => {
    const write = pgGroupCommit(store.db, insertNames);
    await write('taken');
    statements.length = 0;
    const results = await Promise.allSettled(['x-1', 'taken', 'x-2', 'x-1'].map((n) => write(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as { code?: string }).code).toBe('23505');
    expect(await visible('x-1')).toBe(1);
    expect(await visible('x-2')).toBe(1);
    // The batch's statement, then each write's own.
    expect(statements).toEqual([4, 1, 1, 1, 1]);
  });

  it('the store unavailable: every write of the batch hears it, none is retried one by one', async () => {
    statements.length = 0;
    const down = Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' });
    const write = pgGroupCommit(store.db, async (_db, names: string[]) => {
      statements.push(names.length);
      throw down;
    });
    const results = await Promise.allSettled(['u-1', 'u-2', 'u-3'].map((n) => write(n)));
    expect(results.every((r) => r.status === 'rejected' && isStoreUnavailable(r.reason))).toBe(true);
    expect(statements).toEqual([3]);
  });

  it("a batch that lost a deadlock is run again whole, not one by one; the store busy is everyone's 503 too", async () => {
    statements.length = 0;
    let deadlocks = 1;
    const write = pgGroupCommit(store.db, async (db, names: string[]) => {
      if (deadlocks-- > 0) {
        statements.push(-names.length);
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      }
      await insertNames(db, names);
    });
    await Promise.all(['d-1', 'd-2', 'd-3'].map((n) => write(n)));
    expect(statements).toEqual([-3, 3]);
    for (const n of ['d-1', 'd-2', 'd-3']) expect(await visible(n)).toBe(1);

    statements.length = 0;
    const busy = pgGroupCommit(store.db, async (_db, names: string[]) => {
      statements.push(names.length);
      throw Object.assign(new Error('no database connection became free in time'), { code: 'HOSTPAY_POOL_BUSY' });
    });
    const results = await Promise.allSettled(['b-1', 'b-2'].map((n) => busy(n)));
    expect(results.every((r) => r.status === 'rejected' && isStoreBusy(r.reason))).toBe(true);
    expect(statements).toEqual([2]);
  });

  it('more arrivals than a batch holds: batches of at most maxBatch, at most `concurrency` in flight, all written once', async () => {
    statements.length = 0;
    let inFlight = 0;
    let most = 0;
    const write = pgGroupCommit(
      store.db,
      async (db, names: string[]) => {
        most = Math.max(most, ++inFlight);
        try {
          await insertNames(db, names);
        } finally {
          inFlight--;
        }
      },
      { maxBatch: 8, concurrency: 2 },
    );
    const names = Array.from({ length: 50 }, (_, i) => `many-${i}`);
    await Promise.all(names.map((n) => write(n)));
    expect(statements.every((n) => n <= 8)).toBe(true);
    expect(statements.reduce((s, n) => s + n, 0)).toBe(50);
    expect(most).toBeLessThanOrEqual(2);
    for (const n of names) expect(await visible(n)).toBe(1);
  });

  it('index blocks: two instances taking 300 indices of one key at once never take one twice', async () => {
    await sql`insert into account_keys (id, xpub_sealed, next_index) values ('akey_1', 'sealed-1', 5)`.execute(
      store.db,
    );
    const chain = { id: 'chn', symbol: 'TRON', family: 'tron', network_type: 'mainnet', account_key_id: 'akey_1' };
    const one = indexBlocks(store.db);
    const two = indexBlocks(other.db);
    const taken = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? one : two).take(chain)));
    const indices = taken.map((t) => t.index);
    expect(new Set(indices).size).toBe(300);
    expect(Math.min(...indices)).toBeGreaterThanOrEqual(5);
    expect(taken.every((t) => t.keyId === 'akey_1' && t.xpubSealed === 'sealed-1')).toBe(true);
    const { next_index } = (
      await sql<{ next_index: number }>`select next_index from account_keys where id = 'akey_1'`.execute(store.db)
    ).rows[0]!;
    // Past every index handed out, by at most what the two still hold (taken ahead: 2 blocks each).
    expect(next_index).toBeGreaterThan(Math.max(...indices));
    expect(next_index - 5 - 300).toBeLessThanOrEqual(4 * BLOCK);
  });
});
