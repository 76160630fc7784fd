import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Longest a source file may be, in lines. */
export const MAX_FILE_LINES = 400;
/** Longest a function's own body may be, in lines (the lines of functions nested in it are theirs). */
export const MAX_FUNCTION_LINES = 120;

/**
 * What counts as source: the code the packages ship (`packages/<name>/src`) and the browser
 * apps the server serves (console, dashboard and their ui-kit). Tests, benches and build scripts
 * are tools around the product, read once for what they check, and are left out.
 */
export function sourceRoots(root = ROOT): string[] {
  const packages = join(root, 'packages');
  const roots = readdirSync(packages)
    .map((name) => join(packages, name, 'src'))
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory());
  for (const ui of ['console', 'dashboard', 'ui-kit']) roots.push(join(packages, 'server', ui));
  return roots;
}

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

/** Every source file, as a path relative to the repository root. */
export function sourceFiles(root = ROOT): string[] {
  return sourceRoots(root)
    .flatMap((dir) => [...filesUnder(dir)])
    .map((file) => relative(root, file))
    .sort();
}

export interface FunctionSize {
  /** `file:line name` — where the function starts and what it is called, for a readable failure. */
  where: string;
  /** Lines of its body that are not lines of a function nested in it. */
  ownLines: number;
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name !== undefined && (ts.isIdentifier(named.name) || ts.isPrivateIdentifier(named.name))) {
    return named.name.text;
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/**
 * Each function's own body length. A function's body runs from the line its body opens on to
 * the line it closes on; the lines a nested function takes after its first line are the nested
 * function's, so a component or a route table made of small callbacks is measured callback by
 * callback, not as one block.
 */
export function functionSizes(fileName: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const sizes: FunctionSize[] = [];
  const measure = (fn: ts.FunctionLikeDeclaration & { body: ts.Node }) => {
    const first = lineOf(fn.body.getStart(source));
    const last = lineOf(fn.body.getEnd());
    const taken = new Set<number>();
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body !== undefined) {
        const end = lineOf(node.getEnd());
        for (let line = lineOf(node.getStart(source)) + 1; line <= end; line++) taken.add(line);
        return;
      }
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(fn.body, visit);
    let own = 0;
    for (let line = first; line <= last; line++) if (!taken.has(line)) own++;
    sizes.push({ where: `${fileName}:${lineOf(fn.getStart(source)) + 1} ${nameOf(fn)}`, ownLines: own });
  };
  const walk = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body !== undefined) {
      measure(node as ts.FunctionLikeDeclaration & { body: ts.Node });
    }
    ts.forEachChild(node, walk);
  };
  walk(source);
  return sizes;
}

/** A file's length in lines (a final newline does not start another line). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

export interface Oversize {
  files: string[];
  functions: string[];
}

/** The source files and functions over the limits, each with its length, e.g. `a.ts: 512 lines`. */
export function oversize(root = ROOT, files = sourceFiles(root)): Oversize {
  const found: Oversize = { files: [], functions: [] };
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const lines = lineCount(text);
    if (lines > MAX_FILE_LINES) found.files.push(`${file}: ${lines} lines`);
    for (const size of functionSizes(file, text)) {
      if (size.ownLines > MAX_FUNCTION_LINES) found.functions.push(`${size.where}: ${size.ownLines} lines`);
    }
  }
  return found;
}
