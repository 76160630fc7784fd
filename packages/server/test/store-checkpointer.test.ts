import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walCheckpointer } from '../src/store/checkpointer.js';
import { migrate } from '../src/migrations.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { Store } from '../src/store/store.js';

/**
 * WAL checkpoints run on a worker thread with its own connection (store/checkpointer.ts), so a
 * COMMIT on the serving thread only appends to the WAL. What must hold: the worker really copies
 * committed pages into the database file, the serving connection checkpoints again by itself when
 * the worker is gone, and closing still leaves one consistent file.
 */
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hostpay-checkpointer-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('WAL checkpoints off the serving thread', () => {
  it('copies a committed write into the database file without the writer checkpointing', async () => {
    const file = join(dir, 'store.db');
    const store = openSqliteStore(file);
    await sql`create table blobs (id integer primary key, data blob not null)`.execute(store.db);
    const before = statSync(file).size;
    // 2 MB, about 520 pages: under both automatic thresholds (1,000 pages by default, 10,000
    // with the worker), so only the worker can move these pages into the file.
    // The worker starts after 32 writes within 2 s (a CLI command's few never start it): 32 writes of ~62 KB.
    const write = (w: number) =>
      store.writeTransaction(async (trx) => {
        for (let i = 0; i < 16; i++)
          await sql`insert into blobs (id, data) values (${w * 16 + i}, randomblob(4000))`.execute(trx);
      });
    for (let w = 0; w < 31; w++) await write(w);
    await new Promise((r) => setTimeout(r, 100));
    expect(statSync(file).size).toBe(before);
    await write(31);
    await until(() => statSync(file).size >= before + 2_000_000);
    await store.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = new BetterSqlite3(file, { readonly: true });
    expect(reopened.prepare('select count(*) from blobs').pluck().get()).toBe(512);
    reopened.close();
  });

  it('does not start for a fresh database’s migrations nor for writes now and then, only for a store that keeps writing', async () => {
    // The serving connection's own threshold says whether the worker runs (10,000 while it does).
    const own = async (store: Store) =>
      Number(
        (await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(store.db)).rows[0]
          ?.wal_autocheckpoint,
      );
    const opened = async (name: string) => {
      const store = openSqliteStore(join(dir, name));
      await sql`create table notes (id integer primary key)`.execute(store.db);
      const note = (id: number) =>
        store.writeTransaction((trx) => sql`insert into notes (id) values (${id})`.execute(trx));
      return { store, note };
    };
    const idle = await opened('idle.db');
    const { applied } = await migrate(idle.store);
    expect(applied.length).toBeGreaterThan(32);
    expect(await own(idle.store)).toBe(1000);
    // An idle server's background jobs write every few seconds (the mail sender twice every 2 s):
    // 34 writes at least 70 ms apart never make 32 within 2 s.
    for (let i = 0; i < 34; i++) {
      await idle.note(i);
      await new Promise((r) => setTimeout(r, 70));
    }
    expect(await own(idle.store)).toBe(1000);
    await idle.store.close();

    const busy = await opened('busy.db');
    for (let i = 0; i < 31; i++) await busy.note(i);
    expect(await own(busy.store)).toBe(1000);
    await busy.note(31);
    expect(await own(busy.store)).toBe(10_000);
    await busy.store.close();
  });

  it('raises the writer’s own threshold while the worker runs and restores it when the worker fails', async () => {
    const file = join(dir, 'store.db');
    const raw = new BetterSqlite3(file);
    raw.pragma('journal_mode = WAL');
    const own = () => raw.pragma('wal_autocheckpoint', { simple: true });
    expect(own()).toBe(1000);

    const healthy = walCheckpointer(raw, file);
    healthy.start();
    expect(healthy.stats.running).toBe(true);
    expect(own()).toBe(10_000);
    await healthy.stop();

    // A worker that cannot open its connection (the file is gone) ends: the writer checkpoints again.
    const broken = walCheckpointer(raw, join(dir, 'missing.db'));
    const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
    broken.start();
    await until(() => !broken.stats.running);
    expect(own()).toBe(1000);
    expect((await warned).message).toMatch(/checkpoint worker stopped .*on its own thread/);
    // Not started again on the next write: a worker that cannot run would be respawned forever.
    broken.start();
    expect(broken.stats.running).toBe(false);
    expect(own()).toBe(1000);
    await broken.stop();
    raw.close();
  });

  it('counts only checkpoints that found frames, and checkpoints nothing while idle', async () => {
    const file = join(dir, 'store.db');
    const raw = new BetterSqlite3(file);
    raw.pragma('journal_mode = WAL');
    raw.exec('create table t (n integer)');
    const cp = walCheckpointer(raw, file, { intervalMs: 10 });
    cp.start();
    raw.prepare('insert into t (n) values (1)').run();
    await until(() => cp.stats.checkpoints === 1);
    // Nothing committed since: ten intervals later the count is unchanged.
    await new Promise((r) => setTimeout(r, 100));
    expect(cp.stats.checkpoints).toBe(1);
    await cp.stop();
    raw.close();
  });

  it('empties the WAL under writes that never pause: the worker holds the write gate for a short second pass', async () => {
    const file = join(dir, 'store.db');
    const raw = new BetterSqlite3(file);
    raw.pragma('journal_mode = WAL');
    raw.exec('create table blobs (id integer primary key, data blob not null)');
    const cp = walCheckpointer(raw, file, { intervalMs: 5, restartPages: 64 });
    cp.start();
    const insert = raw.prepare('insert into blobs (data) values (randomblob(3000))');
    const batch = raw.transaction(() => {
      for (let i = 0; i < 4; i++) insert.run();
    });
    // The WAL's frame count (mxFrame, bytes 16–19 of the wal-index header in the -shm file, native byte order).
    const shm = openSync(`${file}-shm`, 'r');
    const header = Buffer.alloc(4);
    const frames = () => {
      readSync(shm, header, 0, 4, 16);
      return header.readUInt32LE(0);
    };
    let batches = 0;
    let refused = 0;
    let restartsSeen = 0;
    let lastFrames = 0;
    const end = Date.now() + 10_000;
    // A writer that asks the gate before each batch, as the group commit does, about once a millisecond without end.
    while ((restartsSeen < 3 || cp.stats.restarts < 3) && Date.now() < end) {
      if (cp.gate.enter()) {
        try {
          batch();
          batches++;
        } finally {
          cp.gate.leave();
        }
      } else refused++;
      // The WAL started over: its frame count fell (an emptied WAL is written again from its start).
      const now = frames();
      if (now < lastFrames) restartsSeen++;
      lastFrames = now;
      await new Promise((r) => setTimeout(r, 1));
    }
    closeSync(shm);
    expect(restartsSeen).toBeGreaterThanOrEqual(3);
    expect(cp.stats.restarts).toBeGreaterThanOrEqual(3);
    // The worker held the gate for its second passes (whether a write was turned away meanwhile depends on timing).
    expect(cp.stats.longestHoldMs, `refused ${refused}`).toBeGreaterThan(0);
    await cp.stop();
    expect(raw.prepare('select count(*) from blobs').pluck().get()).toBe(batches * 4);
    raw.close();
  });

  it('opens the gate to the writer whenever no worker runs', async () => {
    const file = join(dir, 'store.db');
    const raw = new BetterSqlite3(file);
    raw.pragma('journal_mode = WAL');
    const cp = walCheckpointer(raw, file);
    expect(cp.gate.enter()).toBe(true);
    cp.gate.leave();
    await cp.stop();
    expect(cp.gate.enter()).toBe(true);
    cp.gate.leave();
    raw.close();
  });
});
