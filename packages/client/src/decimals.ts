/**
 * Exact amounts. The server writes decimals as JSON number literals with up to 18 fractional
 * digits; JSON.parse would round them to binary floats, so the literals of decimal fields are
 * quoted before parsing and come back as their exact text.
 */

/**
 * The decimal fields of the wire objects (Wallet, FeePreview and its tier, Checkout and its options
 * and payments, Payout, the summary, PaymentLink, Invoice and their lines). Chosen by name: a
 * payment link line's whole `quantity` comes back as text too, like an invoice line's decimal one.
 */
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
  'amountDue',
  'received',
  'remaining',
  'netAmount',
  'networkFee',
  'total',
  'rateSpreadPercent',
  'balance',
  'minAmount',
  'maxAmount',
  'unitAmount',
  'quantity',
  'taxPercent',
  'tax',
  'subtotal',
  'amountPaid',
] as const;
export type DecimalField = (typeof DECIMAL_FIELDS)[number];

/** How decimal fields come back: exact strings (default) or numbers (may lose digits). */
export type AmountMode = 'string' | 'number';

/** Webhook events' objects (wallet.balance_changed's `balance` is among the wire objects' fields too). */
const EVENT_FIELDS = [...DECIMAL_FIELDS];
const FIELDS = new Set<string>(DECIMAL_FIELDS);
const EVENT_FIELD_SET = new Set<string>(EVENT_FIELDS);
const WS = '[ \\t\\n\\r]*';
// A decimal field's name, the colon, and a number after it. One regular-expression pass finds
// them far faster than walking the text character by character in JavaScript (the 1,000-wallet
// answer is ~0.5 MB with ~1,300 hits), and JSON.parse does the rest.
const DECIMAL_MEMBER = new RegExp(`"(?:${DECIMAL_FIELDS.join('|')})"${WS}:${WS}(?=[-0-9])`, 'g');
const EVENT_MEMBER = new RegExp(`"(?:${EVENT_FIELDS.join('|')})"${WS}:${WS}(?=[-0-9])`, 'g');
// Any member name before a number: used only when the text has a \u escape, which could spell a
// decimal field's name (`"\u0066ee"` is `fee`). The server never writes one.
const ANY_MEMBER = new RegExp(`"((?:[^"\\\\]|\\\\.)*)"${WS}:${WS}(?=[-0-9])`, 'g');
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** True when the quote at `at` is escaped, i.e. inside a string (an odd run of backslashes). */
function escapedQuote(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && text.charCodeAt(i) === 92) i--;
  return (at - 1 - i) % 2 === 1;
}

function isDecimalName(escaped: string, fields: Set<string>): boolean {
  try {
    return fields.has(JSON.parse(`"${escaped}"`) as string);
  } catch {
    return false; // not a valid name: JSON.parse of the whole text will say so
  }
}

/**
 * JSON.parse, with the decimal fields as exact strings in 'string' mode.
 *
 * In JSON text a quote inside a string is always escaped, so `"fee":` with an unescaped opening
 * quote can only be a member name (a string value cannot be followed by a colon in valid JSON, and
 * JSON.parse rejects invalid text afterwards). Quoting the number literal that follows is then the
 * whole transformation; numbers elsewhere, and a decimal field holding an array or an object, are
 * left to JSON.parse. test/exact-parse.test.ts holds this to the protocol's exact-JSON reader.
 */
export function parseJson(text: string, mode: AmountMode, of: 'wire' | 'event' = 'wire'): unknown {
  if (mode === 'number') return JSON.parse(text);
  const decode = text.includes('\\u');
  const fields = of === 'event' ? EVENT_FIELD_SET : FIELDS;
  const re = decode ? ANY_MEMBER : of === 'event' ? EVENT_MEMBER : DECIMAL_MEMBER;
  let out = '';
  let copied = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (escapedQuote(text, m.index) || (decode && !isDecimalName(m[1] ?? '', fields))) {
      re.lastIndex = m.index + 1; // the match may have swallowed the start of a real member
      continue;
    }
    const at = m.index + m[0].length;
    NUMBER.lastIndex = at;
    const literal = NUMBER.exec(text)?.[0];
    if (literal === undefined) break; // a lone "-": JSON.parse below says where
    out += `${text.slice(copied, at)}"${literal}"`;
    copied = at + literal.length;
    re.lastIndex = copied;
  }
  return JSON.parse(copied === 0 ? text : out + text.slice(copied));
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
