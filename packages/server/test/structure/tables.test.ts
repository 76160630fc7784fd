import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC } from './import-graph.js';

/**
 * Features own their tables (issue 41): a feature declares its tables in its own tables.ts (merged
 * into the store's `Database`) and its migrations in its own migrations/ folder, so the kernel
 * names no feature's table and adding a feature with a table touches nothing under store/.
 */
const KERNEL = [
  'store',
  'cache',
  'cluster',
  'auth',
  'http',
  'crypto',
  'observability',
  'outbound',
  'documents',
  'i18n',
  'admin',
  'feature-kit',
];
const KERNEL_FILES = ['config.ts', 'errors.ts'];
const KERNEL_TABLES = ['admin_idempotency', 'hostpay_migrations', 'used_signatures'];
/** Literals in kernel files that spell a table's name but are not the table. */
const NOT_TABLES = new Set(["http/openapi.ts 'payouts'"]);

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(name)) yield path;
  }
}

/** The tables a source text adds to `Database` (its `declare module` block), or declares there. */
function declaredTables(text: string): string[] {
  const block = /interface Database \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return [...block.matchAll(/^\s*(\w+)\??:/gm)].map((m) => m[1]!);
}

function featureTables(): Map<string, string> {
  const owner = new Map<string, string>();
  for (const name of readdirSync(join(SRC, 'features'))) {
    const file = join(SRC, 'features', name, 'tables.ts');
    if (!statSync(join(SRC, 'features', name)).isDirectory()) continue;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const table of declaredTables(text)) {
      if (owner.has(table)) throw new Error(`table ${table} is declared by ${owner.get(table)} and by ${name}`);
      owner.set(table, name);
    }
  }
  return owner;
}

/** The quoted literals (', ", `) of a source text that are exactly one of `names`. */
function namedIn(text: string, names: ReadonlySet<string>): string[] {
  return [...text.matchAll(/(['"`])([a-z_]+)\1/g)].map((m) => m[2]!).filter((w) => names.has(w));
}

/**
 * The fronts' catalogues hold words a person reads ("Loading checkouts…"), which spell table names
 * without naming a table: they are i18n's data, not kernel code.
 */
const FRONT_WORDS = join(SRC, 'i18n', 'fronts');

function kernelFiles(): string[] {
  return [
    ...KERNEL.flatMap((folder) => [...sourceFiles(join(SRC, folder))]),
    ...KERNEL_FILES.map((f) => join(SRC, f)),
  ].filter((f) => !f.startsWith(FRONT_WORDS));
}

describe('features own their tables', () => {
  const tables = featureTables();

  it("every feature table is declared once, in its feature's tables.ts; store/ declares only the kernel's", () => {
    expect(tables.size).toBeGreaterThan(40);
    expect(tables.get('checkouts')).toBe('checkouts');
    expect(tables.get('webhook_deliveries')).toBe('webhooks');
    expect(declaredTables(readFileSync(join(SRC, 'store/database.ts'), 'utf8')).sort()).toEqual(KERNEL_TABLES);
    expect(KERNEL_TABLES.filter((t) => tables.has(t))).toEqual([]);
  });

  it('no kernel file names a feature table or imports from features/', () => {
    const names = new Set(tables.keys());
    const offenders: string[] = [];
    for (const file of kernelFiles()) {
      const path = relative(SRC, file);
      const text = readFileSync(file, 'utf8');
      for (const table of namedIn(text, names)) {
        if (!NOT_TABLES.has(`${path} '${table}'`)) offenders.push(`${path} names ${table}`);
      }
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        if (/(^|\/)features\//.test(m[1]!)) offenders.push(`${path} imports ${m[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("a feature's migrations are in its own folder; store/migrations holds only the kernel's", () => {
    const kernelMigrations = readdirSync(join(SRC, 'store/migrations')).filter((f) => /^\d{3}-/.test(f));
    expect(kernelMigrations).toEqual(['010-idempotency-owner.ts', '024-used-signatures.ts']);
    for (const name of readdirSync(join(SRC, 'features'))) {
      const dir = join(SRC, 'features', name, 'migrations');
      let files: string[];
      try {
        files = readdirSync(dir);
      } catch {
        continue;
      }
      const listed = readFileSync(join(SRC, 'features', name, 'tables.ts'), 'utf8');
      for (const file of files)
        expect(listed, `features/${name}/tables.ts lists ${file}`).toContain(
          `./migrations/${file.replace(/\.ts$/, '.js')}`,
        );
    }
  });

  it("docs/architecture.md's feature with a table touches its folder and features/index.ts only", () => {
    const doc = readFileSync(join(SRC, '../../../docs/architecture.md'), 'utf8');
    const start = doc.indexOf('### A feature with a table');
    const section = doc.slice(start, doc.indexOf('\n## ', start));
    const touched = [...section.matchAll(/^\+\+\+ b\/packages\/server\/src\/(.+)$/gm)].map((m) => m[1]!);
    expect(touched).toEqual([
      'features/index.ts',
      'features/notes/feature.ts',
      'features/notes/migrations/027-notes.ts',
      'features/notes/tables.ts',
    ]);
    expect(section).toContain("declare module '../../store/database.js'");
  });

  it('the check sees a table named in a query, a type and a template, and not in a longer word', () => {
    const names = new Set(['events', 'rate_sources']);
    expect(namedIn(".selectFrom('events')", names)).toEqual(['events']);
    expect(namedIn('{ table: "rate_sources"; key: \'id\' }', names)).toEqual(['rate_sources']);
    expect(namedIn('sql`events`', names)).toEqual(['events']);
    expect(namedIn("'events_created' 'rate_sources_x' events", names)).toEqual([]);
    expect(declaredTables('declare module "x" {\n  interface Database {\n    a_b: A;\n    c: C;\n  }\n}')).toEqual([
      'a_b',
      'c',
    ]);
  });
});
