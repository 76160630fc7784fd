import { describe, expect, it } from 'vitest';
import { functionSizes, lineCount, MAX_FILE_LINES, MAX_FUNCTION_LINES, oversize, sourceFiles } from './sizes.js';

/**
 * Known exceptions, each with why it stands and what ends it. An entry names a file
 * (`path`) or a function (`path:name`); the test fails when an entry is no longer needed, so the
 * list only shrinks.
 */
const ALLOWED: Record<string, string> = {
  'packages/server/src/features/merchants/migrations/001-initial.ts:up':
    'a migration existing stores have applied is history: it is not rewritten, only followed by new ones',
  'packages/server/src/features/checkouts/migrations/005-checkouts.ts:up':
    'a migration existing stores have applied is history: it is not rewritten, only followed by new ones',
};

/** `file: 512 lines` → `file`; `file:12 name: 130 lines` → `file:name`. */
const keyOf = (found: string) => {
  const [where] = found.split(': ');
  const m = /^(.*):\d+ (.*)$/.exec(where!);
  return m === null ? where! : `${m[1]}:${m[2]}`;
};

describe('source files and functions stay short enough to read', () => {
  const found = oversize();

  it(`no source file is over ${MAX_FILE_LINES} lines`, () => {
    expect(found.files.filter((f) => ALLOWED[keyOf(f)] === undefined)).toEqual([]);
  });

  it(`no function has over ${MAX_FUNCTION_LINES} lines of its own body (nested functions' lines are theirs)`, () => {
    expect(found.functions.filter((f) => ALLOWED[keyOf(f)] === undefined)).toEqual([]);
  });

  it('every allowed exception is still needed', () => {
    const over = new Set([...found.files, ...found.functions].map(keyOf));
    expect(Object.keys(ALLOWED).filter((k) => !over.has(k))).toEqual([]);
  });

  it('the scope is the shipped code: packages/*/src and the console, dashboard and ui-kit pages', () => {
    const files = sourceFiles();
    expect(files).toContain('packages/server/src/app.ts');
    expect(files).toContain('packages/protocol/src/index.ts');
    expect(files).toContain('packages/server/dashboard/pages/checkouts.tsx');
    expect(files).toContain('packages/server/ui-kit/ui.tsx');
    expect(files.some((f) => f.startsWith('bench/') || f.includes('/test/'))).toBe(false);
  });
});

describe('the measure', () => {
  it('counts a function body without the functions nested in it', () => {
    const inner = Array.from({ length: 10 }, (_, i) => `    const v${i} = ${i};`).join('\n');
    const text = [
      'export function outer() {', //       1: the outer body opens
      '  const a = 1;', //                    2
      '  const f = () => {', //               3: counted for outer (the line it starts on)
      inner, //                               4–13: the inner function's
      '    return v0;', //                    14
      '  };', //                              15
      '  return a + f();', //                 16
      '}', //                                 17
    ].join('\n');
    const sizes = functionSizes('x.ts', text);
    expect(sizes.map((s) => [s.where, s.ownLines])).toEqual([
      ['x.ts:1 outer', 5],
      ['x.ts:3 f', 13],
    ]);
  });

  it('measures methods, arrow callbacks and TSX components, and names them', () => {
    const text = [
      'class A {',
      '  run(): number {',
      '    return 1;',
      '  }',
      '}',
      'export const Page = () => (',
      '  <div>',
      '    {[1].map((n) => <b>{n}</b>)}',
      '  </div>',
      ');',
    ].join('\n');
    const sizes = functionSizes('x.tsx', text);
    expect(sizes.map((s) => [s.where, s.ownLines])).toEqual([
      ['x.tsx:2 run', 3],
      ['x.tsx:6 Page', 5],
      ['x.tsx:8 (callback of [1].map)', 1],
    ]);
  });

  it('reports a function over the limit by file, line and name', () => {
    const long = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `export function tooLong() {\n${long}\n  return 0;\n}\n`;
    const over = functionSizes('y.ts', text).filter((s) => s.ownLines > MAX_FUNCTION_LINES);
    expect(over.map((s) => s.where)).toEqual(['y.ts:1 tooLong']);
    expect(over[0]!.ownLines).toBe(MAX_FUNCTION_LINES + 3);
  });

  it('counts lines as an editor shows them', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
  });
});
