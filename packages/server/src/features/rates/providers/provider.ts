import { Decimal } from '@hostpay/protocol';

export interface Pair {
  base: string;
  quote: string;
}

export const pairKey = (p: Pair) => `${p.base}/${p.quote}`;

export interface FetchContext {
  /** The source's base URL, without a trailing slash (the provider's own unless the operator set one). */
  baseUrl: string;
  pairs: readonly Pair[];
  /** A guarded GET (address guard, timeout, size limit): the answer's text, or an error for any status but 200. */
  get(url: string): Promise<string>;
  now: number;
}

/**
 * One kind of rate source: how to ask it for some pairs and read its answer. An adapter returns
 * the exact decimal text of every pair it was asked for (1 base = rate quote) or throws: an
 * answer that lacks a pair or has one in an unexpected shape is malformed as a whole, so nothing
 * of it is written.
 */
export interface RateProvider {
  kind: string;
  /** Null: the provider makes no request (demo). */
  defaultBaseUrl: string | null;
  /** Where its API is documented, for docs and messages. */
  endpoint: string;
  fetch(ctx: FetchContext): Promise<Map<string, string>>;
}

export class MalformedAnswer extends Error {
  override readonly name = 'MalformedAnswer';
}

const DECIMAL_TEXT = /^(?:0|[1-9]\d{0,30})(?:\.\d{1,40})?$/;

/**
 * A rate as the provider wrote it: a JSON string (or XML attribute) of plain decimal digits,
 * kept as text and read by decimal.js, never through a float. Rounded to 18 fractional digits
 * (the store's precision for rates); zero or less is refused.
 */
export function exactRate(value: unknown, what: string): string {
  if (typeof value !== 'string' || !DECIMAL_TEXT.test(value))
    throw new MalformedAnswer(`${what} is not a decimal string: ${JSON.stringify(value)?.slice(0, 40)}`);
  const d = new Decimal(value).toDecimalPlaces(18, Decimal.ROUND_HALF_UP);
  if (d.lte(0)) throw new MalformedAnswer(`${what} is not greater than 0: ${value}`);
  return d.toFixed();
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new MalformedAnswer(`${what} answered with something that is not JSON`);
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
