import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** packages/server/src */
export const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(name)) yield path;
  }
}

/**
 * The folder a source file belongs to: `features/<name>` for a feature, the top folder for the
 * kernel (`http`, `store`, …), null for the composition files at the root of src.
 */
export function folderOf(file: string, src = SRC): string | null {
  const parts = relative(src, file).split('/');
  if (parts.length === 1) return null;
  if (parts[0] === 'features') return `features/${parts[1]}`;
  return parts[0]!;
}

/** Folder → the folders its files import (relative imports and `import('…')` types alike). */
export function folderImports(src = SRC): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) {
    const from = folderOf(file, src);
    if (from === null) continue;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const to = folderOf(resolve(dirname(file), m[1]!), src);
      if (to !== null && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** A file's relative imports (`import`, `import type`, `export … from`, `import('…')`), as paths under src. */
function importsOf(file: string, src: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    const base = resolve(dirname(file), m[1]!).replace(/\.js$/, '');
    const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => existsSync(p));
    if (target === undefined) throw new Error(`${relative(src, file)}: cannot resolve '${m[1]}'`);
    found.push(relative(src, target));
  }
  return found;
}

/** File → the files it imports, type-only imports included (a type cycle is still a cycle to read). */
export function fileImports(src = SRC): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) graph.set(relative(src, file), new Set(importsOf(file, src)));
  return graph;
}

/** Every set of folders (or files) that import each other, directly or around a loop (Tarjan's components). */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return found;
}
