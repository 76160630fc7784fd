/**
 * Where a PostgreSQL-backed server's connections spend a benchmark run: `pg_stat_activity` of the
 * backends whose `application_name` is the server's, sampled every `everyMs`, counted by state,
 * wait event and the first words of the statement (so "5 connections waiting on the lock of
 * `update event_sequences`" and "2 idle in transaction waiting for Node" show as such), plus the
 * server's WAL counters (`pg_stat_wal`: flushes and bytes) over the same time. The database is
 * shared with other work, so the WAL figures are the whole server's: read them beside a run's count.
 */
import pg from 'pg';

export interface PgSample {
  samples: number;
  /** Mean number of the server's connections in each (state / wait / statement) class. */
  classes: { what: string; mean: number }[];
  walSyncs: number;
  walBytes: number;
  walRecords: number;
}

const SAMPLE = `select state, coalesce(wait_event_type || ':' || wait_event, '') as wait,
  left(regexp_replace(query, '\\s+', ' ', 'g'), 48) as query
  from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()`;
const WAL =
  'select wal_sync::float8 as syncs, wal_bytes::float8 as bytes, wal_records::float8 as records from pg_stat_wal';

/** Starts sampling; the returned function stops and summarises. */
export async function samplePostgres(
  url: string,
  applicationName: string,
  everyMs = 5,
): Promise<() => Promise<PgSample>> {
  const client = new pg.Client({ connectionString: url, application_name: 'hostpay-bench-sampler' });
  await client.connect();
  const wal0 = (await client.query<{ syncs: number; bytes: number; records: number }>(WAL)).rows[0]!;
  const counts = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = Date.now();
      const { rows } = await client.query<{ state: string | null; wait: string; query: string }>(SAMPLE, [
        applicationName,
      ]);
      samples++;
      for (const r of rows) {
        // An idle connection's `query` is its last statement: only what is running or holding a transaction counts by text.
        const what = r.state === 'idle' ? 'idle' : `${r.state} ${r.wait} ${r.query}`.replace(/\s+/g, ' ').trim();
        counts.set(what, (counts.get(what) ?? 0) + 1);
      }
      const rest = everyMs - (Date.now() - started);
      if (rest > 0) await new Promise((r) => setTimeout(r, rest));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    const wal1 = (await client.query<{ syncs: number; bytes: number; records: number }>(WAL)).rows[0]!;
    await client.end();
    return {
      samples,
      classes: [...counts.entries()]
        .map(([what, n]) => ({ what, mean: n / Math.max(1, samples) }))
        .sort((a, b) => b.mean - a.mean),
      walSyncs: wal1.syncs - wal0.syncs,
      walBytes: wal1.bytes - wal0.bytes,
      walRecords: wal1.records - wal0.records,
    };
  };
}

/** A summary in a few lines: the classes holding at least 0.05 connections on average. */
export function formatSample(s: PgSample, creates: number): string {
  const lines = s.classes.filter((c) => c.mean >= 0.05).map((c) => `  ${c.mean.toFixed(2).padStart(6)}  ${c.what}`);
  return [
    `pg_stat_activity, ${s.samples} samples (mean connections per class):`,
    ...lines,
    `WAL (whole server): ${s.walSyncs} flushes, ${(s.walBytes / 1e6).toFixed(1)} MB, ${s.walRecords} records; per create: ${(s.walSyncs / Math.max(1, creates)).toFixed(3)} flushes, ${(s.walBytes / Math.max(1, creates)).toFixed(0)} bytes`,
  ].join('\n');
}
