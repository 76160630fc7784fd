/**
 * Exact amounts between Medusa and hostpay. Medusa hands a provider its amounts as numbers,
 * decimal strings, its own `BigNumber` (whose `raw.value` is the exact text) or a bignumber.js
 * value; hostpay takes and answers decimal text with at most 18 fractional digits. Nothing here
 * goes through a binary float: text is turned into text, and the one computation (a partial
 * refund's share of what was received) is done on scaled integers.
 */

/** The most fractional digits hostpay takes for an amount. */
export const MAX_SCALE = 18;

const PLAIN = /^(\d+)(?:\.(\d+))?$/;
const EXPONENT = /^(\d+)(?:\.(\d*))?[eE]([+-]?\d+)$/;

/** A non-negative decimal text without exponent, sign, leading zeros or trailing fractional zeros. */
function normalise(whole: string, fraction: string): string {
  const w = whole.replace(/^0+(?=\d)/, '');
  const f = fraction.replace(/0+$/, '');
  return f === '' ? w : `${w}.${f}`;
}

/** `1.5e-7` → `0.00000015`, `2e3` → `2000`; plain text is normalised. Undefined when it is no number. */
export function plainDecimal(text: string): string | undefined {
  const t = text.trim();
  const plain = PLAIN.exec(t);
  if (plain) return normalise(plain[1]!, plain[2] ?? '');
  const exp = EXPONENT.exec(t);
  if (!exp) return undefined;
  const digits = exp[1]! + (exp[2] ?? '');
  const point = exp[1]!.length + Number(exp[3]);
  if (point <= 0) return normalise('0', '0'.repeat(-point) + digits);
  if (point >= digits.length) return normalise(digits + '0'.repeat(point - digits.length), '');
  return normalise(digits.slice(0, point), digits.slice(point));
}

/** What a Medusa amount can be: `BigNumberInput` of @medusajs/framework/types, read without importing it. */
export type MedusaAmount =
  | number
  | string
  | bigint
  | {
      raw?: { value?: unknown } | undefined;
      numeric?: unknown;
      toFixed?: unknown;
      value?: unknown;
      precision?: unknown;
    }
  | null
  | undefined;

function textOf(amount: MedusaAmount): string | undefined {
  if (amount === null || amount === undefined) return undefined;
  if (typeof amount === 'string') return amount;
  if (typeof amount === 'bigint') return amount.toString();
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) return undefined;
    // String(0.1) is '0.1': the shortest text that reads back as the same float, i.e. what was meant.
    return String(amount);
  }
  // Medusa's BigNumber: raw.value is the exact text (numeric is a float, never used).
  const raw = amount.raw;
  if (raw && (typeof raw.value === 'string' || typeof raw.value === 'number')) return String(raw.value);
  // A raw value ({ value, precision }) as Medusa stores it in raw_amount columns.
  if (typeof amount.value === 'string' || typeof amount.value === 'number') return String(amount.value);
  // bignumber.js, decimal.js, big.js: toFixed() without an argument writes every digit, no exponent.
  if (typeof amount.toFixed === 'function') return String((amount.toFixed as () => unknown)());
  return undefined;
}

/**
 * The decimal text hostpay is sent for a Medusa amount: exact, positive, at most 18 fractional
 * digits (hostpay refuses more, and rounding a payment amount silently is not ours to do).
 */
export function toHostpayAmount(amount: MedusaAmount): string {
  const text = textOf(amount);
  const plain = text === undefined ? undefined : plainDecimal(text);
  if (plain === undefined) throw new RangeError(`not an amount: ${String(text ?? amount)}`);
  if (!/[1-9]/.test(plain)) throw new RangeError(`an amount must be positive, got ${plain}`);
  const fraction = plain.split('.')[1] ?? '';
  if (fraction.length > MAX_SCALE)
    throw new RangeError(`an amount has at most ${MAX_SCALE} fractional digits, got ${plain}`);
  return plain;
}

/** A decimal text as a scaled integer: value × 10^scale (the text has at most `scale` fractional digits). */
function scaled(text: string, scale: number): bigint {
  const plain = plainDecimal(text);
  if (plain === undefined) throw new RangeError(`not an amount: ${text}`);
  const [whole, fraction = ''] = plain.split('.');
  if (fraction.length > scale) throw new RangeError(`${text} has more than ${scale} fractional digits`);
  return BigInt(whole! + fraction.padEnd(scale, '0'));
}

function unscaled(value: bigint, scale: number): string {
  const digits = value.toString().padStart(scale + 1, '0');
  return normalise(digits.slice(0, digits.length - scale), digits.slice(digits.length - scale));
}

/** How many fractional digits a decimal text has. */
export function scaleOf(text: string): number {
  return (plainDecimal(text) ?? '').split('.')[1]?.length ?? 0;
}

/** Exact sum of decimal texts. */
export function sumDecimals(texts: readonly string[]): string {
  const scale = Math.max(0, ...texts.map(scaleOf));
  return unscaled(
    texts.reduce((acc, t) => acc + scaled(t, scale), 0n),
    scale,
  );
}

/** Compares two decimal texts: -1, 0 or 1. */
export function compareDecimals(a: string, b: string): number {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  const d = scaled(a, scale) - scaled(b, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/**
 * The part of `received` (in the paid asset) that refunds `refund` of a checkout of `total` (in
 * the checkout's currency): received × refund / total, rounded down to `scale` fractional digits
 * (the asset's precision as hostpay wrote its amounts), so a refund never gives back more than its
 * share. A refund of the whole total (or more) is the whole of `received`, exactly.
 */
export function refundShare(refund: string, total: string, received: string, scale: number): string {
  if (compareDecimals(refund, total) >= 0) return plainDecimal(received)!;
  const s = Math.max(scaleOf(refund), scaleOf(total));
  const r = scaled(refund, s);
  const t = scaled(total, s);
  // received × 10^scale × r / t, floored: one division at the end, so no digit is lost before it.
  const share = (scaled(received, MAX_SCALE) * r) / t;
  const step = 10n ** BigInt(MAX_SCALE - Math.min(scale, MAX_SCALE));
  return unscaled((share / step) * step, MAX_SCALE);
}
