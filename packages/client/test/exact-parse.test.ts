import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExactJson } from '@hostpay/protocol';
import { DECIMAL_FIELDS } from '../src/index.js';
import { parseJson } from '../src/decimals.js';

/**
 * The client keeps its own small exact-decimal reader (it may import nothing). This holds it to
 * the protocol's exact-JSON reader: on any JSON text, the client's result is the protocol's
 * parse with every number kept as text, then turned into a number except where it is the value
 * of a decimal field.
 */
const decimalFields = new Set<string>(DECIMAL_FIELDS);
const marker = Symbol('number');
type Marked = { [marker]: string };
const isMarked = (v: unknown): v is Marked => typeof v === 'object' && v !== null && marker in v;

function reference(text: string): unknown {
  const walk = (v: unknown, key: string | undefined): unknown => {
    if (isMarked(v)) return key !== undefined && decimalFields.has(key) ? v[marker] : Number(v[marker]);
    if (Array.isArray(v)) return v.map((x) => walk(x, undefined));
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v))
        Object.defineProperty(out, k, { value: walk(x, k), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return v;
  };
  return walk(
    parseExactJson(text, (literal) => ({ [marker]: literal })),
    undefined,
  );
}

// JSON text written by hand so numbers can be any literal (exponents, 30 digits) and whitespace
// can sit anywhere JSON allows it.
type Node = { n: string } | string | boolean | null | Node[] | { o: [string, Node][] };
const literal = fc
  .tuple(
    fc.boolean(),
    fc.bigInt({ min: 0n, max: 10n ** 30n }),
    fc.option(fc.stringMatching(/^[0-9]{1,20}$/)),
    fc.option(fc.integer({ min: -30, max: 30 })),
  )
  .map(([neg, int, frac, exp]) => ({
    n: `${neg ? '-' : ''}${int}${frac === null ? '' : `.${frac}`}${exp === null ? '' : `e${exp}`}`,
  }));
// Member names as JSON text: the decimal fields, names that hold one behind escapes (`fee"`,
// `"fee`, `x\` before a decimal field's quote, `\u0066ee`), and anything else.
const key = fc.oneof(
  fc.constantFrom(...DECIMAL_FIELDS).map((k) => JSON.stringify(k)),
  fc.constantFrom(
    String.raw`"fee\""`,
    String.raw`"\"fee"`,
    String.raw`"x\\"`,
    String.raw`"\u0066ee"`,
    String.raw`"\\\"amount"`,
  ),
  fc.string().map((k) => JSON.stringify(k)),
);
const tricky = fc.constantFrom('"fee": 5', '\\"amount\\": 1.5', 'amount', '\\\\', '"rate":-0.1}');
const tree = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    literal,
    fc.oneof(fc.string(), tricky),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie('node')), { maxLength: 5 }).map((o) => ({ o })),
  ),
})).node;
const space = fc.constantFrom('', '', ' ', '\n  ', '\t', '\r\n');

function write(node: Node, ws: () => string): string {
  if (node === null) return 'null';
  if (typeof node === 'boolean') return String(node);
  if (typeof node === 'string') return JSON.stringify(node);
  if (Array.isArray(node)) return `[${node.map((x) => ws() + write(x, ws) + ws()).join(',')}]`;
  if ('n' in node) return node.n;
  return `{${node.o.map(([k, v]) => `${ws()}${k}${ws()}:${ws()}${write(v, ws)}${ws()}`).join(',')}}`;
}

describe('client parseJson and the protocol exact-JSON reader', () => {
  it('give the same result on any JSON text', () => {
    fc.assert(
      fc.property(tree, fc.array(space, { minLength: 1 }), (node, spaces) => {
        let i = 0;
        const text = write(node, () => spaces[i++ % spaces.length]!);
        expect(parseJson(text, 'string')).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('agree on the real wallet list shape with 18-digit amounts', () => {
    const text =
      '{"isSuccess":true,"result":[{"id":"w","amount":1234567890.123456789012345678,"freezeAmount":0.000000000000000001,"networks":[{"id":"n","depositEnabled":true}]}]}';
    expect(parseJson(text, 'string')).toEqual(reference(text));
    expect(reference(text)).toMatchObject({
      result: [{ amount: '1234567890.123456789012345678', freezeAmount: '0.000000000000000001' }],
    });
  });

  it('both reject what JSON.parse rejects', () => {
    for (const bad of ['{"amount":', '{"amount":-}', '{"amount":01}', '{"fee":1.}', '{"a":1,}', '{"amount" 1}']) {
      expect(() => parseJson(bad, 'string'), bad).toThrow(SyntaxError);
      expect(() => reference(bad), bad).toThrow(SyntaxError);
    }
  });
});
