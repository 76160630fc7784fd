import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { Steps } from '../src/store/steps.js';

/**
 * The group commit, the WAL checkpoint worker's write gate and Kysely's reads on one connection,
 * all at once for a few seconds: 8 KB rows fill the WAL past the worker's restart mark again and
 * again, so batches are turned away while it holds the gate. Every caller must be answered, and
 * exactly the writes told "done" are in the table.
 */
it('mixed synchronous, awaited and failing writes and reads under the checkpoint worker all settle, and exactly the successful ones are kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostpay-stress-'));
  const store = openSqliteStore(join(dir, 'store.db'));
  await sql`create table blobs (id integer primary key, data blob not null)`.execute(store.db);
  let id = 0;
  let failed = 0;
  let written = 0;
  const pending = new Set<number>();
  function* stepsWrite(n: number, fail: boolean): Steps<void> {
    yield sql`insert into blobs (id, data) values (${n}, randomblob(8000))`;
    if (fail) yield sql`insert into blobs (id, data) values (${n}, zeroblob(1))`;
  }
  const one = async (kind: number) => {
    const n = ++id;
    pending.add(n);
    const fail = n % 7 === 0;
    try {
      if (kind === 0) await store.writeSteps(() => stepsWrite(n, fail));
      else if (kind === 1)
        await store.writeTransaction(async (trx) => {
          await sql`insert into blobs (id, data) values (${n}, randomblob(8000))`.execute(trx);
          await new Promise((r) => setImmediate(r));
          if (fail) await sql`insert into blobs (id, data) values (${n}, zeroblob(1))`.execute(trx);
        });
      else await sql`select count(*) from blobs`.execute(store.db);
      if (kind !== 2) written++;
    } catch {
      failed++;
    } finally {
      pending.delete(n);
    }
  };
  const end = Date.now() + 3000;
  const all: Promise<void>[] = [];
  while (Date.now() < end) {
    // At most 200 in flight: a loaded machine must be able to clear what is queued in time.
    for (let i = 0; i < 20 && pending.size < 200; i++) all.push(one(Math.floor(Math.random() * 3)));
    await new Promise((r) => setImmediate(r));
  }
  const settled = await Promise.race([
    Promise.all(all).then(() => true),
    new Promise((r) => setTimeout(() => r(false), 10_000)),
  ]);
  try {
    expect(settled, `unanswered: ${[...pending].slice(0, 10).join(' ')} (${pending.size})`).toBe(true);
    expect(failed).toBeGreaterThan(0);
    const rows = await sql<{ n: number }>`select count(*) as n from blobs`.execute(store.db);
    expect(rows.rows[0]!.n).toBe(written);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
