import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGISTERED_FEATURES } from '../../src/features/index.js';
import { fileImports, SRC } from './import-graph.js';

/**
 * Issue 41 item 4: features reach each other one way, through their descriptors (provisions, and
 * contribution points for work one hands another), connected by the registry; the composition
 * walks the registration list without naming a feature.
 */

const COMPOSITION = ['app.ts', 'services.ts', 'merchant-services.ts', 'admin-services.ts', 'create-server.ts'];

/** What the composition still names: nothing (the test pins it; a new import or name fails it). */
const STILL_NAMED: Record<string, string[]> = Object.fromEntries(COMPOSITION.map((file) => [file, []]));

/** Source text without comments and with string literals emptied, and the literals apart. */
function code(text: string): { bare: string; strings: string[] } {
  const strings: string[] = [];
  const bare = text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g, (_, a, b, c) => {
      strings.push(a ?? b ?? c ?? '');
      return "''";
    });
  return { bare, strings };
}

/** A composition file's imports into features/ other than index.ts, and the features it names. */
function namedFeatures(file: string): string[] {
  const imports = [...(fileImports().get(file) ?? [])].filter(
    (to) => to.startsWith('features/') && to !== 'features/index.ts',
  );
  const { bare, strings } = code(readFileSync(join(SRC, file), 'utf8'));
  const names = new Set(REGISTERED_FEATURES.map((f) => f.name));
  // A feature is named by its name in a string, or by a provision it provides as a property or key.
  const words = new Set<string>(REGISTERED_FEATURES.flatMap((f) => f.provides));
  const named = new Set<string>();
  for (const s of strings) if (names.has(s)) named.add(`'${s}'`);
  for (const m of bare.matchAll(/(?<!Object)\.([A-Za-z_$][\w$]*)\b(?!\s*\()/g))
    if (words.has(m[1]!)) named.add(`.${m[1]}`);
  for (const m of bare.matchAll(/[{,]\s*([A-Za-z_$][\w$]*)\s*[:,}]/g)) if (words.has(m[1]!)) named.add(`${m[1]}:`);
  return [...imports.sort(), ...[...named].sort()];
}

describe('the composition walks the registration list and names no feature', () => {
  for (const file of COMPOSITION) {
    it(`${file} imports nothing from features/ but index.ts and names no feature (but what is listed)`, () => {
      expect(namedFeatures(file)).toEqual(STILL_NAMED[file]);
    });
  }

  it("the kernel's route context names no feature's port (the chain watcher reports through the system's point)", () => {
    expect(namedFeatures('http/route-context.ts')).toEqual([]);
    const { bare } = code(readFileSync(join(SRC, 'http/route-context.ts'), 'utf8'));
    const provided = new Set<string>(REGISTERED_FEATURES.flatMap((f) => f.provides));
    const fields = [...bare.matchAll(/^\s*([A-Za-z_$][\w$]*)\??\s*:/gm)].map((m) => m[1]!);
    expect(fields).toContain('services');
    expect(fields.filter((f) => provided.has(f))).toEqual([]);
  });

  it('the check sees an import and a name', () => {
    const { bare, strings } = code("import x from './features/webhooks/feature.js'; // 'pay'\nservices.webhooks.x;");
    expect(strings).toEqual(['./features/webhooks/feature.js']);
    expect(bare).toContain('services.webhooks.x');
    expect(bare).not.toContain('pay');
  });
});

/**
 * Module-level state in features/ that is not a registry: each kept for what it caches or holds
 * once per process, never as a list other features add to.
 */
const MODULE_STATE: Record<string, string> = {
  'addresses/allocate.ts:parsed': 'parsed account keys, a bounded cache of pure results',
  'addresses/tweak-curve.ts:chosen': 'libsecp256k1 (native or WebAssembly) chosen and loaded on first use',
  'addresses/derive.ts:macKeys': 'HMAC keys per parsed key, a cache of pure results (WeakMap)',
  'addresses/prefetch.ts:worker': 'the one prefetch worker thread of the process',
  'addresses/prefetch.ts:disabled': 'the prefetch worker failed: derive in place from then on',
  'addresses/prefetch.ts:nextId': "the worker thread's request counter",
  'addresses/prefetch.ts:waiting': "the worker thread's requests in flight",
  'chain-watch/adapters/evm/rpc.ts:viemModule': 'viem loaded on the first watched EVM chain',
  'dashboard/routes.ts:cached': 'the built dashboard files, read once',
  'events/wakeup.ts:localBuses':
    "the wake-up buses of one SQLite store in this process (several services over one file wake each other's streams); keyed by the store, added to by the events feature only",
  'fees/preview.ts:shared': 'one fee service per cache set, a cache of pure results (WeakMap)',
  'merchant-users/passwords.ts:dummy': 'the dummy hash compared against for unknown users, made once',
  'pay/assets.ts:BRANDS':
    "the palette stylesheets made so far, bounded (a cache of pure results of the colours in the file's name)",
  'pay/qr.ts:loaded': 'the QR encoder loaded on first use',
  'reports/format.ts:CSV_LAYOUT':
    "each report kind's column layout, worked out once from constants (a cache of pure results)",
};

/** `file:name` of every module-level binding in `dir` that is reassigned or a collection written to. */
function moduleState(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) {
        const { bare } = code(readFileSync(path, 'utf8'));
        for (const m of bare.matchAll(
          /^(?:export\s+)?(let|var|const)\s+([A-Za-z_$][\w$]*)\b[^=;\n]*(?:=\s*([^\n]*))?/gm,
        )) {
          const [, kind, binding, value = ''] = m;
          const collection = /^(new\s+(Set|Map|WeakMap|WeakSet|LRUCache)\b|\[\])/.test(value);
          const written = new RegExp(`\\b${binding}\\.(add|set|delete|clear|push|splice|unshift)\\(`).test(bare);
          if (kind !== 'const' || (collection && written)) found.push(`${relative(dir, path)}:${binding}`);
        }
      }
    }
  };
  walk(dir);
  return found.sort();
}

describe('no module-level registry in features/', () => {
  it('module-level state in features/ is only what is listed, each with its reason', () => {
    expect(moduleState(join(SRC, 'features'))).toEqual(Object.keys(MODULE_STATE).sort());
  });

  it('the check sees a registry filled by an import (the outbox subscribers of old) and passes constant sets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostpay-wiring-'));
    try {
      mkdirSync(join(dir, 'events'));
      writeFileSync(
        join(dir, 'events', 'outbox.ts'),
        [
          'const subscribers = new Set<Subscriber>();',
          'export function subscribeToOutbox(s: Subscriber): void {',
          '  subscribers.add(s);',
          '}',
          "export const FINAL: ReadonlySet<string> = new Set(['settled']);",
          "const label = 'subscribers.add(x)'; // subscribers.add(y)",
        ].join('\n'),
      );
      expect(moduleState(dir)).toEqual(['events/outbox.ts:subscribers']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
