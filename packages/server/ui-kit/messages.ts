/**
 * The fronts' messages: the console's and the dashboard's words live in ICU catalogues
 * (src/i18n/fronts/en, the public pages' mechanism) and reach the screen through `t`. The public
 * pages format with intl-messageformat on the server; a front cannot afford its parser in its
 * budget, so this formats the subset the catalogues use: `{name}`, `{n, plural, =0 {…} one {…}
 * other {…}}` with `#`, `{x, select, a {…} other {…}}` and ICU's apostrophe quoting. Every
 * catalogue message is formatted by both and compared in test/i18n/fronts.test.ts.
 *
 * The build (scripts/front-messages.mjs) writes each placeholder-free `t('key')` as its text, so
 * English costs the bundle nothing; a language to come would be a bundle of its own.
 */

export type FrontValues = Record<string, string | number>;

type Part = string | { arg: string; kind?: 'plural' | 'select'; cases?: Record<string, Part[]> };

const parsed = new Map<string, Part[]>();
const plurals = new Intl.PluralRules('en');

/** Reads `text` from `at` up to the closing brace of the current level (or the end at level 0). */
function parse(text: string, at: { i: number }, nested: boolean, inPlural: boolean): Part[] {
  const parts: Part[] = [];
  let literal = '';
  while (at.i < text.length) {
    const c = text[at.i] as string;
    if (c === "'") {
      const next = text[at.i + 1];
      if (next === "'") {
        literal += "'";
        at.i += 2;
        continue;
      }
      if (next === '{' || next === '}' || (inPlural && next === '#')) {
        const end = text.indexOf("'", at.i + 1);
        const stop = end === -1 ? text.length : end;
        literal += text.slice(at.i + 1, stop).replaceAll("''", "'");
        at.i = stop + 1;
        continue;
      }
      literal += c;
      at.i++;
    } else if (c === '}' && nested) {
      at.i++;
      break;
    } else if (c === '#' && inPlural) {
      if (literal) parts.push(literal);
      literal = '';
      parts.push({ arg: '#' });
      at.i++;
    } else if (c === '{') {
      if (literal) parts.push(literal);
      literal = '';
      at.i++;
      parts.push(argument(text, at));
    } else {
      literal += c;
      at.i++;
    }
  }
  if (literal) parts.push(literal);
  return parts;
}

function argument(text: string, at: { i: number }): Part {
  const close = /[,}]/g;
  close.lastIndex = at.i;
  const m = close.exec(text);
  if (m === null) throw new Error(`unclosed argument in: ${text}`);
  const arg = text.slice(at.i, m.index).trim();
  at.i = m.index + 1;
  if (m[0] === '}') return { arg };
  const comma = text.indexOf(',', at.i);
  const kind = text.slice(at.i, comma).trim();
  if (kind !== 'plural' && kind !== 'select') throw new Error(`unsupported argument type ${kind} in: ${text}`);
  at.i = comma + 1;
  const cases: Record<string, Part[]> = {};
  for (;;) {
    while (/\s/.test(text[at.i] ?? '')) at.i++;
    if (text[at.i] === '}') {
      at.i++;
      break;
    }
    const open = text.indexOf('{', at.i);
    if (open === -1) throw new Error(`unclosed ${kind} in: ${text}`);
    const selector = text.slice(at.i, open).trim();
    at.i = open + 1;
    cases[selector] = parse(text, at, true, kind === 'plural');
  }
  return { arg, kind, cases };
}

function write(parts: Part[], values: FrontValues, count: number | undefined): string {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') out += p;
    else if (p.arg === '#') out += count === undefined ? '#' : count.toLocaleString('en');
    else if (p.kind === undefined) out += String(values[p.arg] ?? `{${p.arg}}`);
    else {
      const v = values[p.arg];
      const cases = p.cases ?? {};
      if (p.kind === 'plural') {
        const n = Number(v);
        const chosen = cases[`=${n}`] ?? cases[plurals.select(n)] ?? cases.other ?? [];
        out += write(chosen, values, n);
      } else out += write(cases[String(v)] ?? cases.other ?? [], values, count);
    }
  }
  return out;
}

/** `message` with `values` in its placeholders. */
export function formatMessage(message: string, values: FrontValues = {}): string {
  let parts = parsed.get(message);
  if (parts === undefined) {
    parts = parse(message, { i: 0 }, false, false);
    parsed.set(message, parts);
  }
  return write(parts, values, undefined);
}

/** The `t` of one catalogue: its keys only, checked by the compiler. */
export function translator<M extends Record<string, string>>(
  messages: M,
): (key: keyof M & string, values?: FrontValues) => string {
  return (key, values) => formatMessage(messages[key] ?? key, values);
}
