/**
 * When a failed delivery is tried again (spec/checkout.md): after 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 14 h, 20 h and 24 h, each ±20 % so that many deliveries failing together do not retry
 * together; after the last retry the delivery is failed. 5 days without a success disables.
 */
export const RETRY_DELAYS_MS = [5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 504e5, 72e6, 864e5] as const;
export const JITTER = 0.2;
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/** The delay before the next try after `attempts` failed ones, or null when it was the last. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}
