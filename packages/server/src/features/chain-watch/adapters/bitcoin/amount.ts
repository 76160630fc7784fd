/**
 * Bitcoin amounts as exact integers of satoshis. Bitcoin Core writes amounts in BTC as JSON
 * numbers ("0.10000000"); reading them as JavaScript numbers and multiplying by 1e8 loses
 * satoshis (0.29 * 1e8 = 28999999.999999996), so the number is read from its JSON text.
 */

/** All bitcoin there will ever be, in satoshis: no honest output is larger. */
export const MAX_SATS = 2_100_000_000_000_000n;

/**
 * A decimal text of BTC (`0.10000000`, `21000000`, `1e-8`) as satoshis, exactly; undefined if it
 * is not a plain number, has a fraction finer than one satoshi, is negative or exceeds 21e6 BTC.
 */
export function btcTextToSats(text: string): bigint | undefined {
  const m = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d{1,3}))?$/.exec(text);
  if (!m) return undefined;
  const int = m[1] as string;
  const frac = m[2] ?? '';
  const exp = Number(m[3] ?? '0');
  // digits × 10^(exp − frac.length) BTC = digits × 10^(8 + exp − frac.length) sat
  const digits = BigInt(int + frac);
  const shift = 8 + exp - frac.length;
  let sats: bigint;
  if (shift >= 0) sats = digits * 10n ** BigInt(shift);
  else {
    const div = 10n ** BigInt(-shift);
    if (digits % div !== 0n) return undefined;
    sats = digits / div;
  }
  return sats <= MAX_SATS ? sats : undefined;
}

/** Satoshis as the BTC decimal text Bitcoin Core writes (8 decimals). */
export function satsToBtcText(sats: bigint): string {
  const s = sats.toString().padStart(9, '0');
  return `${s.slice(0, -8)}.${s.slice(-8)}`;
}

/** Marks a number read from JSON with the exact text it was written as. */
export class JsonNumber {
  constructor(
    readonly text: string,
    readonly value: number,
  ) {}
}

/**
 * JSON.parse that keeps every number's source text (JSON.parse source text access, Node 21+), so
 * amounts are converted from what the node wrote, not from the nearest double.
 */
export function parseJsonKeepingNumbers(text: string): unknown {
  return JSON.parse(text, function reviver(this: unknown, _key: string, value: unknown, context?: { source?: string }) {
    if (typeof value !== 'number') return value;
    // Without source access (older runtimes) the shortest round-trip text is still exact for
    // amounts of at most 8 decimals below 21e6 BTC: a double's spacing there is under 1e-8.
    return new JsonNumber(context?.source ?? String(value), value);
  } as (this: unknown, key: string, value: unknown) => unknown);
}
