import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderOf, SRC } from './import-graph.js';

/**
 * One writer per table (issue 41): a table is written only by the feature that owns it, so a
 * second path that writes it (PostgreSQL's batched checkout create once wrote events without their
 * checkout) cannot drift from the first. Others reach it through what the owner exports.
 * Migrations (each feature's migrations/ folder, the kernel's store/migrations) change tables other
 * features own and are not writers in this sense.
 */
const OWNERS: Record<string, string> = {
  events: 'features/events',
  event_sequences: 'features/events',
  webhook_deliveries: 'features/webhooks',
};

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(name)) yield path;
  }
}

/** The tables a source text writes: Kysely's insertInto/updateTable/deleteFrom/insertRow, and SQL text. */
function writtenTables(text: string): Set<string> {
  const tables = new Set<string>();
  const patterns = [
    /\b(?:insertInto|updateTable|deleteFrom|replaceInto)\(\s*'(\w+)'/g,
    /\binsertRow\(\s*\w+,\s*'(\w+)'/g,
    /\binsertRowStep\(\s*'(\w+)'/g,
    /\b(?:insert\s+into|delete\s+from|update)\s+"?(\w+)"?[\s(]/gi,
  ];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) tables.add(m[1]!);
  return tables;
}

describe('one writer per table', () => {
  it('events and event_sequences are written only by features/events, webhook_deliveries only by features/webhooks', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const path = relative(SRC, file);
      if (path.split('/').includes('migrations')) continue;
      const folder = folderOf(file);
      for (const table of writtenTables(readFileSync(file, 'utf8')))
        if (OWNERS[table] !== undefined && OWNERS[table] !== folder) offenders.push(`${path} writes ${table}`);
    }
    expect(offenders).toEqual([]);
  });

  it('the check sees a write in each form it knows', () => {
    expect(writtenTables(".insertInto('events').values(v)")).toEqual(new Set(['events']));
    expect(writtenTables("await insertRow(trx, 'webhook_deliveries', row)")).toEqual(new Set(['webhook_deliveries']));
    expect(writtenTables("yield insertRowStep('events', row)")).toEqual(new Set(['events']));
    expect(writtenTables('s as (insert into event_sequences (merchant_id, n) select …)')).toEqual(
      new Set(['event_sequences']),
    );
    expect(writtenTables('update events set checkout_id = 1')).toEqual(new Set(['events']));
    expect(writtenTables(".selectFrom('events').where(…)")).toEqual(new Set());
  });
});
