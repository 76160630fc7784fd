/**
 * JSON with exact decimals. `JSON.stringify` can only write binary floats, so a stored amount
 * like 1234.567890123456789012 would be rounded; `JsonDecimal` marks a value whose decimal text
 * is written verbatim as a JSON number literal. `parseExactJson` is the matching reader: it
 * returns every number as its source text, so nothing is lost on the way back either.
 */
export class JsonDecimal {
  constructor(readonly text: string) {
    if (!NUMBER_RE.test(text)) throw new TypeError(`not a JSON number literal: ${text}`);
  }
  /**
   * What `JSON.stringify` writes: the exact text where the runtime has `JSON.rawJSON` (so plain
   * `JSON.stringify` is the exact writer there), else the nearest binary float.
   */
  toJSON(): unknown {
    return rawJSON === undefined ? Number(this.text) : rawJSON(this.text);
  }
  toString(): string {
    return this.text;
  }
}

const NUMBER_RE = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

export function jsonDecimal(text: string): JsonDecimal {
  return new JsonDecimal(text);
}

/**
 * The hand-written writer, for runtimes without `JSON.rawJSON`: serialises like JSON.stringify
 * (compact), writing JsonDecimal values as raw number literals. `writeExactJson` is this one or
 * the built-in's (below).
 */
export function writeExactJsonPortable(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value instanceof JsonDecimal) return value.text;
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          const item: unknown = value[i];
          out += item === undefined || typeof item === 'function' ? 'null' : writeExactJsonPortable(item);
        }
        return out + ']';
      }
      if (value instanceof Date) return JSON.stringify(value.toISOString());
      let out = '{';
      let first = true;
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        if (item === undefined || typeof item === 'function') continue;
        out += (first ? '' : ',') + JSON.stringify(key) + ':' + writeExactJsonPortable(item);
        first = false;
      }
      return out + '}';
    }
    default:
      return 'null';
  }
}

/** A parsed JSON number kept as its exact source text. */
export type ExactJson = null | boolean | string | { number: string } | ExactJson[] | { [k: string]: ExactJson };

const LITERALS: readonly [string, boolean | null][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

/** The hand-written reader: any runtime. `parseExactJson` is this one or the built-in's (below). */
export function parseExactJsonPortable(text: string, onNumber: (literal: string) => unknown = (s) => s): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${i} in JSON`);
  };
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name');
        const key = str();
        ws();
        if (text[i++] !== ':') fail('expected ":"');
        Object.defineProperty(obj, key, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        const sep = text[i++];
        if (sep === '}') return obj;
        if (sep !== ',') fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        const sep = text[i++];
        if (sep === ']') return arr;
        if (sep !== ',') fail('expected "," or "]"');
      }
    }
    if (c === '"') return str();
    for (const [word, literal] of LITERALS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return literal;
      }
    }
    const m = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    m.lastIndex = i;
    const hit = m.exec(text);
    if (!hit) return fail('unexpected token');
    i += hit[0].length;
    return onNumber(hit[0]);
  };
  const str = (): string => {
    const start = i;
    i++;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) fail('unterminated string');
      if (c === 34) break;
      if (c === 92) i++;
      else if (c < 32) fail('control character in string');
      i++;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const result = value();
  ws();
  if (i !== text.length) fail('unexpected data after JSON');
  return result;
}

/** A wire type whose numbers may be given as exact JsonDecimal values. */
export type WithExactNumbers<T> = T extends number
  ? number | JsonDecimal
  : T extends (infer U)[]
    ? WithExactNumbers<U>[]
    : T extends object
      ? { [K in keyof T]: WithExactNumbers<T[K]> }
      : T;

/** The same type as a client sees it after a lossless parse: exact decimals as strings. */
export type DecimalsAsStrings<T> = T extends JsonDecimal
  ? string
  : T extends (infer U)[]
    ? DecimalsAsStrings<U>[]
    : T extends object
      ? { [K in keyof T]: DecimalsAsStrings<T[K]> }
      : T;

// The built-in exact JSON (TC39 "JSON.parse source text access": Node 22+, Bun, Deno, workerd):
// `JSON.rawJSON(text)` is written by JSON.stringify verbatim, and a reviver's third argument holds
// each primitive's source text. Neither is in TypeScript's lib yet.
type RawJson = (text: string) => unknown;
type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;
const builtin = JSON as unknown as { rawJSON?: RawJson; parse(text: string, reviver: Reviver): unknown };

/** True where this runtime has both halves of the built-in exact JSON. */
export const hasBuiltinExactJson: boolean = (() => {
  if (typeof builtin.rawJSON !== 'function') return false;
  const source = builtin.parse('1.10', (_k, _v, context) => context?.source);
  return source === '1.10' && JSON.stringify([builtin.rawJSON('1.10')]) === '[1.10]';
})();

/** `JSON.rawJSON` where the runtime has the whole built-in exact JSON: JsonDecimal's toJSON uses it. */
const rawJSON: RawJson | undefined = hasBuiltinExactJson ? builtin.rawJSON : undefined;

/**
 * The reader on the built-in: JSON.parse with a reviver that hands each number's source text
 * to `onNumber`. Only where `hasBuiltinExactJson`; the same tests and vectors hold it to the
 * hand-written reader (test/exact-json.test.ts).
 */
export function parseExactJsonBuiltin(text: string, onNumber: (literal: string) => unknown = (s) => s): unknown {
  return builtin.parse(text, (_key, value, context) =>
    typeof value === 'number' ? onNumber(context?.source ?? String(value)) : value,
  );
}

/**
 * The writer on the built-in: plain JSON.stringify, as each JsonDecimal's toJSON hands it a
 * `JSON.rawJSON` of its text. Only where `hasBuiltinExactJson`. One native pass instead of a
 * string built key by key: 6.3 against 9.1 µs for a checkout view (2.1 kB, 11 decimals), and far
 * less garbage (the hand-written writer was 14 % of the bytes a create allocated; docs/benchmarks.md).
 * An earlier built-in writer with a replacer (a call per value) measured no faster.
 */
export function writeExactJsonBuiltin(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/**
 * Serialises like JSON.stringify (compact), writing JsonDecimal values as raw number literals: the
 * built-in writer where the runtime has `JSON.rawJSON`, the hand-written one elsewhere (Node 20,
 * older browsers). The same tests hold both (test/exact-json.test.ts).
 */
export const writeExactJson: (value: unknown) => string = hasBuiltinExactJson
  ? writeExactJsonBuiltin
  : writeExactJsonPortable;

/**
 * Reads JSON, calling `onNumber` with each number's exact source text (by default numbers come back
 * as those strings); throws SyntaxError on malformed input, like JSON.parse. The built-in reader
 * where the runtime has it, as it is the faster (docs/benchmarks.md, "Dependencies"); the
 * hand-written one elsewhere (Node 20, older browsers).
 */
export const parseExactJson: (text: string, onNumber?: (literal: string) => unknown) => unknown = hasBuiltinExactJson
  ? parseExactJsonBuiltin
  : parseExactJsonPortable;
