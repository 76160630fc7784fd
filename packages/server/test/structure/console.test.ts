import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** packages/server/console: the operator console's browser source. */
const CONSOLE = resolve(dirname(fileURLToPath(import.meta.url)), '../../console');
/** The kit it shares with the merchant dashboard, and the dashboard: held to the same rules. */
const SHARED = [CONSOLE, resolve(CONSOLE, '../ui-kit'), resolve(CONSOLE, '../dashboard')];

function* consoleFiles(dir = CONSOLE): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* consoleFiles(path);
    else if (/\.tsx?$/.test(name)) yield path;
  }
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
}

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** `file:line` of every `any` written in the source. */
function anyTypes(source: ts.SourceFile): string[] {
  const found: string[] = [];
  walk(source, (n) => {
    if (n.kind === ts.SyntaxKind.AnyKeyword) {
      const { line } = source.getLineAndCharacterOfPosition(n.getStart());
      found.push(`${relative(CONSOLE, source.fileName)}:${line + 1}`);
    }
  });
  return found;
}

/** Imports and re-exports of server code that would load it at run time (not `import type`). */
function serverValueImports(source: ts.SourceFile): string[] {
  const found: string[] = [];
  for (const s of source.statements) {
    if (!ts.isImportDeclaration(s) && !ts.isExportDeclaration(s)) continue;
    const from = s.moduleSpecifier;
    if (from === undefined || !ts.isStringLiteral(from) || !from.text.startsWith('@hostpay/server')) continue;
    let typeOnly: boolean;
    if (ts.isImportDeclaration(s)) {
      const clause = s.importClause;
      const named = clause?.namedBindings;
      typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
    } else {
      typeOnly = s.isTypeOnly;
    }
    if (!typeOnly) found.push(`${relative(CONSOLE, source.fileName)}: ${s.getText(source)}`);
  }
  return found;
}

describe('the console reads the API with the server’s own types', () => {
  const sources = SHARED.flatMap((dir) => [...consoleFiles(dir)]).map(parse);

  it('no row or answer is typed `any`', () => {
    expect(sources.flatMap(anyTypes)).toEqual([]);
  });

  it('its row types come from the server (views.ts), imported as types only', () => {
    const views = sources.find((s) => relative(CONSOLE, s.fileName) === 'views.ts');
    expect(
      views?.statements.some((s) => ts.isImportDeclaration(s) && s.getText(views).includes("'@hostpay/server'")),
    ).toBe(true);
    // A value import would bundle server code (the store, Node built-ins) into the browser's page.
    expect(sources.flatMap(serverValueImports)).toEqual([]);
  });

  it('the checks see an `any` and an import of server values when there is one', () => {
    const sample = ts.createSourceFile(
      join(CONSOLE, 'sample.ts'),
      "import { createAdminServices } from '@hostpay/server';\nimport type { AuditView } from '@hostpay/server';\nexport const x: Record<string, any> = {};\n",
      ts.ScriptTarget.Latest,
      true,
    );
    expect(anyTypes(sample)).toEqual(['sample.ts:3']);
    expect(serverValueImports(sample)).toEqual(["sample.ts: import { createAdminServices } from '@hostpay/server';"]);
  });
});
