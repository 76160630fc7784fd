import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAMILY_NAMES } from '../../src/chain-families/index.js';
import { SRC } from '../structure/import-graph.js';

/**
 * A chain family's rules live in its folder (src/chain-families/<name>/) and nowhere else: no
 * other source file spells a family's name as a string or compares a chain's family with one.
 * The exceptions, each with its reason:
 */
const ALLOWED: Record<string, string> = {
  'features/checkouts/migrations/005-checkouts.ts':
    'the migration that added chains.family wrote the reference chains their families',
  'features/catalog/tables.ts': "the column's comment names the values it holds",
  'features/chain-watch/adapters/evm/index.ts':
    'an adapter says which family it serves (the registry test checks it agrees with the family)',
  'features/chain-watch/adapters/bitcoin/core.ts': 'the same, for bitcoin-core',
  'features/chain-watch/adapters/bitcoin/esplora.ts': 'the same, for esplora',
  'features/chain-watch/adapters/tron/index.ts': 'the same, for tron-http',
};

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(name)) yield path;
  }
}

/**
 * A family name as a string literal (`'btc'`, `case 'evm':`), a chain's family compared with a
 * string (Node's socket address family, 'IPv4' or 'IPv6', is another thing), or a switch on a
 * family. Comparing two families (one fixed after creation) is no branch.
 */
function branchesOnFamily(text: string): string[] {
  // 'bitcoin': the second spelling of btc that the adapters used before.
  const names = [...FAMILY_NAMES, 'bitcoin'].join('|');
  const patterns = [
    new RegExp(`(['"\`])(${names})\\1`, 'g'),
    /family\s*[!=]==?\s*['"`](?!IPv)|['"`]\s*[!=]==?\s*[\w.?]*family\b|switch\s*\([^)]*family[^)]*\)/gi,
  ];
  return patterns.flatMap((p) => [...text.matchAll(p)].map((m) => m[0]));
}

describe('a chain family is one folder', () => {
  it('no source file outside src/chain-families/ names a family or branches on one (but the allowed ones)', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      const path = relative(SRC, file);
      if (path.startsWith('chain-families/') || path in ALLOWED) continue;
      const found = branchesOnFamily(readFileSync(file, 'utf8'));
      if (found.length > 0) offenders.push(`${path}: ${found.join(', ')}`);
    }
    expect(offenders).toEqual([]);
  });

  it('every allowed file still needs its exception', () => {
    const stale = Object.keys(ALLOWED).filter(
      (path) => branchesOnFamily(readFileSync(join(SRC, path), 'utf8')).length === 0,
    );
    expect(stale).toEqual([]);
  });

  it('the check sees a branch on a family', () => {
    expect(branchesOnFamily("if (chain.family === 'evm') return;")).toEqual(["'evm'", "family === '"]);
    expect(branchesOnFamily('switch (c.family) {')).toEqual(['switch (c.family)']);
    expect(branchesOnFamily("if (adapter.family !== 'bitcoin') return;")).toEqual(["'bitcoin'", "family !== '"]);
    expect(branchesOnFamily("const x = 'bitcoin:'; if (bound.family === 'IPv6') x;")).toEqual([]);
  });
});

describe('docs/architecture.md shows adding a family as it is', () => {
  const doc = readFileSync(join(SRC, '../../../docs/architecture.md'), 'utf8');
  const start = doc.indexOf('+++ b/packages/server/src/chain-families/index.ts\n');
  const hunk = doc.slice(start).split('\n').slice(1);
  const shown = hunk.slice(
    0,
    hunk.findIndex((line) => line.startsWith('---') || line.startsWith('```')),
  );

  it('its unchanged lines are the registry, and the added ones only an import and an entry', () => {
    expect(start).toBeGreaterThan(-1);
    const registry = readFileSync(join(SRC, 'chain-families/index.ts'), 'utf8').split('\n');
    const context = shown.filter((line) => line.startsWith(' ')).map((line) => line.slice(1));
    expect(context.length).toBeGreaterThan(5);
    for (const line of context) expect(registry).toContain(line);
    expect(shown.filter((line) => line.startsWith('+'))).toEqual(["+import { ltc } from './ltc/index.js';", '+  ltc,']);
  });
});
