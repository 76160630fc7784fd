import { sql, type Kysely } from 'kysely';

/**
 * What a migrated SQLite store holds, as the statements that build it again in one step: every
 * table as SQLite itself recorded it (after every ALTER), the rows the migrations inserted (the
 * reference catalogue) in their rowid order, then every index, view and trigger, as SQLite's own
 * `.dump` orders them (rows before triggers, which must not fire on them; foreign keys checked at
 * the commit). `hostpay_migrations` keeps its table but not its rows, whose times belong to the
 * store that applies them.
 *
 * `npm run schema:sqlite` writes its result to src/sqlite-schema.ts, which a fresh store applies
 * instead of running the migrations one by one (store/migrate.ts); test/sqlite-schema.test.ts
 * fails when the two differ.
 */
export async function dumpSqliteSchema(db: Kysely<unknown>): Promise<string[]> {
  // SQLite makes its own objects (sqlite_sequence, sqlite_autoindex_*: their `sql` is null) as
  // the statements below run.
  const objects = await sql<{ type: string; name: string; sql: string }>`
    select type, name, sql from sqlite_master
    where sql is not null and name not like 'sqlite\\_%' escape '\\'
    order by case type when 'table' then 0 when 'index' then 1 when 'view' then 2 else 3 end, name`.execute(db);
  const tables = objects.rows.filter((o) => o.type === 'table');
  const statements = ['PRAGMA defer_foreign_keys = ON', ...tables.map((o) => o.sql)];
  for (const { name, sql: ddl } of tables.filter((o) => o.name !== 'hostpay_migrations')) {
    const columns = await sql<{ name: string }>`select name from pragma_table_info(${name}) order by cid`.execute(db);
    const names = columns.rows.map((c) => quoteName(c.name));
    // quote() renders each value as the SQL literal that reads back the same value and type.
    const values = sql.raw(names.map((c) => `quote(${c})`).join(` || ', ' || `));
    const order = sql.raw(/without\s+rowid/i.test(ddl) ? '1' : 'rowid');
    const rows = await sql<{
      v: string;
    }>`select ${values} as v from ${sql.raw(quoteName(name))} order by ${order}`.execute(db);
    for (const { v } of rows.rows)
      statements.push(`INSERT INTO ${quoteName(name)} (${names.join(', ')}) VALUES (${v})`);
  }
  statements.push(...objects.rows.filter((o) => o.type !== 'table').map((o) => o.sql));
  return statements;
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;
