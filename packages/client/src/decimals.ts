/**
 * Exact amounts. The server writes decimals as JSON number literals with up to 18 fractional
 * digits; JSON.parse would round them to binary floats, so the literals of decimal fields are
 * quoted before parsing and come back as their exact text.
 */

/** The decimal fields of the wire objects (Wallet, FeePreview and its tier). */
export const DECIMAL_FIELDS = [
  'amount',
  'freezeAmount',
  'value',
  'minValue',
  'onChainFee',
  'convertedAmount',
  'rate',
  'serviceFee',
  'fee',
  'fromAmount',
  'toAmount',
] as const;
export type DecimalField = (typeof DECIMAL_FIELDS)[number];

/** How decimal fields come back: exact strings (default) or numbers (may lose digits). */
export type AmountMode = 'string' | 'number';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** JSON.parse, with the decimal fields as exact strings in 'string' mode. */
export function parseJson(text: string, mode: AmountMode): unknown {
  if (mode === 'number') return JSON.parse(text);
  const fields = new Set<string>(DECIMAL_FIELDS);
  let out = '';
  let copied = 0;
  let key = '';
  let afterColon = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') {
      const start = i + 1;
      while (++i < text.length && text[i] !== '"') if (text[i] === '\\') i++;
      key = text.slice(start, i);
      afterColon = false;
    } else if (c === ':') {
      afterColon = true;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const literal = NUMBER.exec(text)?.[0];
      if (literal === undefined) break; // malformed: JSON.parse below says where
      if (afterColon && fields.has(key)) {
        out += `${text.slice(copied, i)}"${literal}"`;
        copied = i + literal.length;
      }
      i += literal.length - 1;
      afterColon = false;
    } else if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') {
      afterColon = false;
    }
  }
  return JSON.parse(out + text.slice(copied));
}

/** An amount as a caller may give it: decimal text, a number, a bigint, or a decimal object. */
export type DecimalInput = string | number | bigint | { toFixed(): string };

/**
 * Decimal text for the query string, never with an exponent. A number is sent as its shortest
 * round-trip text (0.1 -> "0.1"); objects such as decimal.js, big.js or bignumber.js instances
 * are sent as their `toFixed()`, which keeps every digit.
 */
export function decimalText(value: DecimalInput): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'number') return value.toFixed();
  const text = String(value);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const digits = (m[2] ?? '') + (m[3] ?? '');
  const exp = Number(m[4]);
  return exp < 0 ? `${m[1]}0.${'0'.repeat(-exp - 1)}${digits}` : `${m[1]}${digits.padEnd(exp + 1, '0')}`;
}
