import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { IntlMessageFormat } from 'intl-messageformat';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import consoleMessages from '../../src/i18n/fronts/en/console/index.js';
import dashboardMessages from '../../src/i18n/fronts/en/dashboard/index.js';
import kitMessages from '../../src/i18n/fronts/en/kit.js';
import { formatMessage } from '../../ui-kit/messages.js';

/**
 * The console's and the dashboard's words go through catalogues (src/i18n/fronts/en), the public
 * pages' mechanism, so a language can follow: each message is ICU, formatted in the browser by the
 * kit's small formatter exactly as intl-messageformat formats it; every key is used; and no
 * screen writes words of its own outside the catalogue.
 */

const SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FRONTS = resolve(SERVER, 'src/i18n/fronts/en');
const CATALOGUES = { console: consoleMessages, dashboard: dashboardMessages, 'ui-kit': kitMessages } as Record<
  string,
  Record<string, string>
>;

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(name)) yield path;
  }
}
const FILES = ['console', 'dashboard', 'ui-kit'].flatMap((d) => [...sources(resolve(SERVER, d))]);
/** The formatter's own errors speak to a catalogue's author, not to a person at a screen. */
const SCREENS = FILES.filter((f) => !f.endsWith('/ui-kit/messages.ts'));

type Ast = { type: number; value?: string; options?: Record<string, { value: Ast[] }> };
/** Every argument a message reads, with its kind (1 argument, 5 select, 6 plural) and cases. */
function argumentsOf(message: string): Map<string, { type: number; cases: string[] }> {
  const out = new Map<string, { type: number; cases: string[] }>();
  const walk = (nodes: Ast[]) => {
    for (const n of nodes) {
      if (n.type !== 0 && n.type !== 7 && typeof n.value === 'string')
        out.set(n.value, { type: n.type, cases: Object.keys(n.options ?? {}) });
      for (const o of Object.values(n.options ?? {})) walk(o.value);
    }
  };
  walk(new IntlMessageFormat(message, 'en', undefined, { ignoreTag: true }).getAst() as Ast[]);
  return out;
}

const ALL = Object.entries(CATALOGUES).flatMap(([scope, m]) => Object.entries(m).map(([k, v]) => ({ scope, k, v })));

describe('the fronts’ catalogues', () => {
  it('hold the words: every screen’s file has keys named after it, none shared', () => {
    expect(ALL.length).toBeGreaterThan(600);
    for (const front of ['console', 'dashboard']) {
      let sum = 0;
      for (const file of readdirSync(join(FRONTS, front)).filter((f) => f !== 'index.ts')) {
        const prefix = basename(file, '.ts');
        const text = readFileSync(join(FRONTS, front, file), 'utf8');
        const keys = [...text.matchAll(/^\s*'([^']+)':/gm)].map((m) => m[1] as string);
        for (const k of keys) expect(k, `${front}/${file}`).toMatch(new RegExp(`^${prefix}\\.[A-Za-z0-9.]+$`));
        sum += keys.length;
      }
      // A key written twice across files would be lost in the spread: the merged count tells.
      expect(Object.keys(CATALOGUES[front] as object).length, front).toBe(sum);
    }
  });

  it('format every message in the browser exactly as intl-messageformat does', () => {
    for (const { scope, k, v } of ALL) {
      const args = argumentsOf(v);
      const choices: Record<string, (string | number)[]> = {};
      for (const [name, a] of args) {
        if (a.type === 6) choices[name] = [0, 1, 2, 5, 1234];
        else if (a.type === 5) choices[name] = [...a.cases.filter((c) => c !== 'other'), 'zz-other'];
        else choices[name] = [`«${name}»`, 3];
      }
      const names = Object.keys(choices);
      const combos = names.reduce<Record<string, string | number>[]>(
        (acc, name) => acc.flatMap((c) => (choices[name] ?? []).map((x) => ({ ...c, [name]: x }))),
        [{}],
      );
      for (const values of combos.slice(0, 50)) {
        const want = String(new IntlMessageFormat(v, 'en', undefined, { ignoreTag: true }).format(values));
        expect(formatMessage(v, values), `${scope} ${k} ${JSON.stringify(values)}`).toBe(want);
        expect(want, `${scope} ${k}`).not.toMatch(/[{}]/);
      }
    }
  });

  it('the formatter agrees with intl-messageformat on generated plurals, selects and quoting', () => {
    for (const quoted of [
      "don't",
      "it''s",
      "'{literal}' {n}",
      "a '{'b'}' c",
      "{n, plural, one {'#' is #} other {# '#'}}",
    ])
      for (const n of [1, 2])
        expect(formatMessage(quoted, { n }), quoted).toBe(
          String(new IntlMessageFormat(quoted, 'en', undefined, { ignoreTag: true }).format({ n })),
        );
    const word = fc.stringMatching(/^[a-z ,.#]{0,8}$/);
    fc.assert(
      fc.property(
        word,
        word,
        word,
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom('a', 'b', 'c'),
        (x, y, z, n, s) => {
          const message = `${x}{n, plural, =0 {${y}} one {# ${z}} other {${y} #}} {s, select, a {${z}} b {{name}} other {${x}}}${z}`;
          let want: string;
          try {
            want = String(
              new IntlMessageFormat(message, 'en', undefined, { ignoreTag: true }).format({ n, s, name: y }),
            );
          } catch {
            return; // not a message intl-messageformat accepts (an apostrophe left open): neither is ours
          }
          expect(formatMessage(message, { n, s, name: y })).toBe(want);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('every key is used by its front, with a literal key the build can inline', () => {
    const used: Record<string, Set<string>> = { console: new Set(), dashboard: new Set(), 'ui-kit': new Set() };
    for (const file of FILES) {
      const scope = relative(SERVER, file).split('/')[0] as string;
      for (const m of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([^']+)'/g)) used[scope]?.add(m[1] as string);
    }
    for (const [scope, messages] of Object.entries(CATALOGUES)) {
      const unused = Object.keys(messages).filter((k) => !used[scope]?.has(k));
      expect(unused, `${scope}: keys no screen reads`).toEqual([]);
    }
  });
});

/** Attributes and props that reach the screen or assistive technology as words. */
const SHOWN = new Set([
  'alt',
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'body',
  'busy',
  'caption',
  'confirm',
  'done',
  'empty',
  'heading',
  'hint',
  'label',
  'legend',
  'message',
  'note',
  'placeholder',
  'submit',
  'summary',
  'text',
  'title',
  'what',
  'warning',
]);
/**
 * Text that is not words of a language: codes, units, symbols, the product's name, an API field's
 * camelCase name, an id's prefix as a placeholder (`chk_…`).
 */
const NOT_WORDS =
  /^[\s\p{P}\p{S}\d]*$|^(hostpay|USD|EUR|BTC|ETH|TRON|EVM|ID|IDs|JSON|NDJSON|CSV|PDF|URL|TOTP|HMAC|API)$|^[a-z]+(?:[A-Z][a-z\d]*)+$|^[a-z]+_…$/u;

/** Words a person reads: a capitalised word followed by another, or several words ending a sentence. */
const SENTENCE = /^[A-Z][a-z]+[ ,][a-z]|^\p{L}+( \p{L}+)+[.!?…]$/u;

/** `file:line "text"` of every word written in a screen's source instead of its catalogue. */
function hardCoded(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    if (NOT_WORDS.test(text.trim()) || !/\p{L}{2}/u.test(text)) return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${relative(SERVER, file)}:${line + 1} ${JSON.stringify(text.trim())}`);
  };
  const nameOf = (n: ts.Node): string | undefined =>
    ts.isJsxAttribute(n) || ts.isPropertyAssignment(n) || ts.isBindingElement(n) || ts.isParameter(n)
      ? n.name.getText(source).replace(/^['"]|['"]$/g, '')
      : undefined;
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text);
    else if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      // The string itself, or the JSX expression / template / conditional it sits in, is given to a
      // prop that shows it.
      let at: ts.Node = node.parent;
      while (
        ts.isJsxExpression(at) ||
        ts.isTemplateExpression(at) ||
        ts.isTemplateSpan(at) ||
        ts.isConditionalExpression(at) ||
        ts.isBinaryExpression(at) ||
        ts.isParenthesizedExpression(at)
      )
        at = at.parent;
      const name = nameOf(at);
      const inJsxChild = ts.isJsxElement(at) || ts.isJsxFragment(at);
      if ((name !== undefined && SHOWN.has(name)) || inJsxChild) report(node, node.text);
      else if (ts.isNewExpression(at) && at.expression.getText(source) === 'Error') report(node, node.text);
      // What a detail column's button names to a screen reader ("Show entry <id>").
      else if (ts.isCallExpression(at) && /(^|\.)column$/.test(at.expression.getText(source))) report(node, node.text);
      // A sentence anywhere else (a validation message returned, a status set) is shown too, unless
      // it is a key, an import or a type.
      else if (
        SENTENCE.test(node.text) &&
        !ts.isImportDeclaration(at) &&
        !ts.isLiteralTypeNode(at) &&
        !(ts.isCallExpression(at) && at.expression.getText(source) === 't')
      )
        report(node, node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the fronts write no words outside the catalogue', () => {
  for (const file of SCREENS) {
    const name = relative(SERVER, file);
    it(name, () => {
      expect(hardCoded(file)).toEqual([]);
    });
  }
  it('the scan finds words where they are written: a screen with a hard-coded label fails', () => {
    const probe = join(tmpdir(), `hostpay-words-probe-${process.pid}.tsx`);
    writeFileSync(
      probe,
      "export const P = () => <p title='Saved at last'>Hello there {x}</p>;\nconst c = [{ label: 'Name' }];\n",
    );
    try {
      expect(hardCoded(probe).map((f) => f.replace(/^.*?:/, ''))).toEqual([
        '1 "Saved at last"',
        '1 "Hello there"',
        '2 "Name"',
      ]);
    } finally {
      rmSync(probe);
    }
  });
});
