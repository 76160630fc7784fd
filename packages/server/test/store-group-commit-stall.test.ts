import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { groupCommit } from '../src/store/group-commit.js';
import { sqliteConnection } from './sqlite-connection.js';

/**
 * A write that waits in the group commit's queue far longer than any should is reported as a
 * process warning (store/group-commit.ts, watchStalls), once, with what the queue waits on: a write
 * that never settles would otherwise leave its request unanswered with nothing in the log.
 */
describe('the group commit reports a stalled write', () => {
  it('warns once when a write stays unsettled past the limit (queued, or in a batch that does not end), and not for writes that flow', async () => {
    const raw = new BetterSqlite3(':memory:');
    raw.exec('create table items (name text primary key)');
    const kdb = new Kysely<never>({ dialect: new SqliteDialect({ database: raw }) });
    const commit = groupCommit(kdb as never, sqliteConnection(raw), undefined, { stallWarningMs: 150 });
    const warnings: Error[] = [];
    const listen = (w: Error) => {
      if (w.name === 'HostpayStoreStall') warnings.push(w);
    };
    process.on('warning', listen);
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
      // Writes that flow are never reported.
      for (let i = 0; i < 20; i++)
        await commit.writeTransaction((trx) => sql`insert into items (name) values (${`flow-${i}`})`.execute(trx));
      await wait(300);
      expect(warnings).toEqual([]);

      // A batch held by a write that does not finish, and a write queued behind it.
      let release!: () => void;
      const held = commit.writeTransaction(async (trx) => {
        await sql`insert into items (name) values ('held')`.execute(trx);
        await new Promise<void>((r) => {
          release = r;
        });
      });
      await wait(20);
      const behind = commit.writeTransaction((trx) => sql`insert into items (name) values ('behind')`.execute(trx));
      await wait(500);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.message).toMatch(
        /^SQLite group commit: a write has waited at least \d+\.\d s \(queued: 1; .*a batch running: true/,
      );
      release();
      await Promise.all([held, behind]);
      expect(raw.prepare("select count(*) from items where name in ('held', 'behind')").pluck().get()).toBe(2);
      await wait(300);
      expect(warnings).toHaveLength(1);

      // A batch that does not end with nothing queued behind it is reported too.
      let releaseAlone!: () => void;
      const alone = commit.writeTransaction(async () => {
        await new Promise<void>((r) => {
          releaseAlone = r;
        });
      });
      await wait(500);
      expect(warnings).toHaveLength(2);
      expect(warnings[1]!.message).toMatch(/\(queued: 0; .*a batch running: true/);
      releaseAlone();
      await alone;
    } finally {
      process.off('warning', listen);
      await kdb.destroy();
    }
  });
});
