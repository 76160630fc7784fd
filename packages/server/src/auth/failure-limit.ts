import { isIPv6 } from 'node:net';
import { unmapIPv4 } from './cidr.js';
import { HostpayError } from '../errors.js';
import { rateLimited } from './refusals.js';
import type { RateLimiter } from './rate-limit.js';

const MINUTE = 60_000;

/**
 * The per-address counter of failed authentications. Merchant and operator failures are counted
 * apart, so a merchant integration that fails does not lock an operator at the same address out.
 */
export const failedAuthBucket = (side: 'merchant' | 'operator', ip: string): string =>
  `authfail:${side}:${addressBlock(ip)}`;

/**
 * Runs `attempt` under the failed-authentication limit of `bucket`. A slot is reserved before
 * the attempt is evaluated (RateLimiter.reserve; slow work such as the key lookup is done before,
 * so a slot is held only while deciding): failures plus attempts in flight never exceed
 * `limit`, so however many attempts arrive at once, at most `limit` can fail per window and the
 * others get 429 without being looked at. Legitimate bursts are not refused: an attempt that finds
 * every slot in flight waits for one to settle. With Redis the slots are shared by every instance
 * (one Lua script each to take and to settle); without it, each instance counts its own.
 */
export async function withFailureLimit<T>(
  limiter: RateLimiter,
  bucket: string,
  limit: number,
  message: string,
  attempt: () => Promise<T> | T,
): Promise<T> {
  const slot = await limiter.reserve(bucket, limit, MINUTE);
  // A turned-away attempt was not evaluated and does not count.
  if (!slot.allowed) throw rateLimited(slot.result, message);
  try {
    const result = await attempt();
    slot.settle(false);
    return result;
  } catch (err) {
    // Only "who are you?" failures count: they are what guessing keys or signatures produces.
    slot.settle(err instanceof HostpayError && err.status === 401);
    throw err;
  }
}

/**
 * The unit failed attempts are counted by: an IPv4 address, or the /64 of an IPv6 address (one
 * subscriber usually holds a whole /64 and could otherwise rotate through it).
 */
export function addressBlock(ip: string): string {
  const address = unmapIPv4(ip);
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('%', 1)[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return (
    groups
      .slice(0, 4)
      .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
      .join(':') + '::/64'
  );
}
