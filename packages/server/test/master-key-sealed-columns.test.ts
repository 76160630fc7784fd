import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../src/crypto/secret-box.js';
import { SEALED_COLUMNS } from '../src/features/master-key/sealed-columns.js';
import { rotateMasterKey } from '../src/features/master-key/service.js';
import { adminIdempotency } from '../src/http/idempotency.js';
import { migrate } from '../src/migrations.js';
import { dropPostgresSchema, openPostgresStore } from '../src/store/postgres.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { Store } from '../src/store/store.js';
import { DIALECTS, TEST_DATABASE_URL, type Dialect } from './helpers.js';

/**
 * The list a master key rotation re-seals (features/master-key/sealed-columns.ts) against the
 * schema every migration leaves: a sealed column left out of it stays under the old key, and
 * retiring that key then loses the secret.
 */
const ctx = { operator: 'test' };
const listed = new Set(SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`));
type Untyped = Kysely<Record<string, Record<string, unknown>>>;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function migratedStore(dialect: Dialect): Promise<{ store: Store; schema: string | undefined }> {
  if (dialect === 'sqlite') {
    const store = openSqliteStore(':memory:');
    cleanups.push(() => store.close());
    await migrate(store);
    return { store, schema: undefined };
  }
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  const store = await openPostgresStore(TEST_DATABASE_URL, { schema });
  cleanups.push(async () => {
    await store.close();
    await dropPostgresSchema(TEST_DATABASE_URL, schema);
  });
  await migrate(store);
  return { store, schema };
}

describe.each(DIALECTS)('sealed columns on %s', (dialect) => {
  it('every column named sealed or *_sealed is re-sealed by a rotation, and every listed one exists', async () => {
    const { store, schema } = await migratedStore(dialect);
    const tables = (await store.db.introspection.getTables()).filter(
      (t) => schema === undefined || t.schema === schema,
    );
    const columns = tables.flatMap((t) => t.columns.map((c) => `${t.name}.${c.name}`));
    const named = columns.filter((c) => /\.(.+_)?sealed$/.test(c));
    // A floor against a scan that finds nothing (and so asserts nothing).
    expect(named.length).toBeGreaterThanOrEqual(11);
    expect(named.filter((c) => !listed.has(c))).toEqual([]);
    expect([...listed].filter((c) => !columns.includes(c))).toEqual([]);
  });
});

describe('a rotation over every listed column', () => {
  it('re-seals each value under the new key with its owner, skips pending idempotency claims, and resumes', async () => {
    const { store } = await migratedStore('sqlite');
    const db = store.db as unknown as Untyped;
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const oldBox = new SecretBox(oldKey);
    // One row per table, every column it must have filled with a stand-in: the rotation reads
    // only keys and sealed columns, so the rows need not make sense otherwise.
    await sql`PRAGMA foreign_keys = OFF`.execute(store.db);
    const tables = new Map((await store.db.introspection.getTables()).map((t) => [t.name, t]));
    const plain = (c: { table: string; column: string }) => `secret of ${c.table}.${c.column}`;
    const keyOf = (table: string, key: readonly string[]) =>
      Object.fromEntries(key.map((k) => [k, `${table}-${k}`])) as Record<string, string>;
    for (const table of new Set(SEALED_COLUMNS.map((c) => c.table))) {
      const row: Record<string, unknown> = {};
      for (const col of tables.get(table)!.columns)
        if (!col.isNullable && !col.hasDefaultValue)
          row[col.name] = /int|real|num/i.test(col.dataType) ? 1 : `${table}-${col.name}`;
      for (const c of SEALED_COLUMNS.filter((s) => s.table === table)) {
        Object.assign(row, keyOf(table, c.key));
        row[c.column] = oldBox.seal(plain(c), c.owner(keyOf(table, c.key)));
        if (c.only) row[c.only.column] = c.only.not + 200;
      }
      await db.insertInto(table).values(row).execute();
    }
    // An admin answer stored as the idempotency layer stores it, and a claim still pending ('' body).
    const before = adminIdempotency({ store, box: oldBox });
    const request = { method: 'POST', url: '/merchants', body: '{}' };
    expect(await before.begin('alice', 'k-done', request)).toEqual({ kind: 'claimed' });
    await before.complete('alice', 'k-done', 201, '{"apiSecret":"s3cret"}');
    expect(await before.begin('alice', 'k-pending', request)).toEqual({ kind: 'claimed' });

    const both = new SecretBox(newKey, [oldKey]);
    const count = SEALED_COLUMNS.length + 1; // one row per column, and the stored answer
    expect(await rotateMasterKey(store, both, ctx)).toEqual({ resealed: count, alreadyCurrent: 0 });
    // Run again (as after an interruption): nothing left to do.
    expect(await rotateMasterKey(store, both, ctx)).toEqual({ resealed: 0, alreadyCurrent: count });

    // Only the new key from now on: every value opens with it, under the owner it was sealed for.
    const newOnly = new SecretBox(newKey);
    for (const c of SEALED_COLUMNS) {
      const key = keyOf(c.table, c.key);
      let q = db.selectFrom(c.table).select(c.column);
      for (const [k, v] of Object.entries(key)) q = q.where(k, '=', v);
      const sealed = (await q.executeTakeFirstOrThrow())[c.column] as string;
      expect(newOnly.isCurrent(sealed), `${c.table}.${c.column}`).toBe(true);
      expect(newOnly.open(sealed, c.owner(key)).toString(), `${c.table}.${c.column}`).toBe(plain(c));
    }
    const after = adminIdempotency({ store, box: newOnly });
    expect(await after.begin('alice', 'k-done', request)).toEqual({
      kind: 'replay',
      status: 201,
      body: '{"apiSecret":"s3cret"}',
    });
    const pending = await db
      .selectFrom('admin_idempotency')
      .select(['status', 'body'])
      .where('key', '=', 'k-pending')
      .executeTakeFirstOrThrow();
    expect(pending).toEqual({ status: 0, body: '' });
    const audits = await store.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'master_key.rotate')
      .execute();
    expect(audits.map((a) => JSON.parse(a.after!))).toEqual([
      { resealed: count, alreadyCurrent: 0 },
      { resealed: 0, alreadyCurrent: count },
    ]);
  });
});
