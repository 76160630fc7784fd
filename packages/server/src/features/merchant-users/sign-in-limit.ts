import { addressBlock } from '../../auth/failure-limit.js';
import { rateLimited } from '../../auth/refusals.js';
import type { RateLimiter } from '../../auth/rate-limit.js';
import { HostpayError } from '../../errors.js';
import { LOCK_AFTER, LOCK_MS } from './users.js';

/**
 * Failed sign-ins one client address (IPv4, or the /64 of IPv6) may make on one account within
 * the lock window before it is turned away (429 RATE_LIMITED): fewer than the LOCK_AFTER that
 * lock the account, so a single address guessing is stopped before it locks the owner out.
 * The account lock stays for guessing spread over several addresses.
 */
export const ADDRESS_FAILURES = 3;
if (ADDRESS_FAILURES >= LOCK_AFTER) throw new Error('one address must be limited before it can lock an account');

/**
 * Runs one sign-in step under the address's limit for `account` (an email hash, or a user id for
 * the second step). A slot is reserved before the attempt is evaluated, so of many attempts sent
 * at once at most ADDRESS_FAILURES can fail in the window (RateLimiter.reserve); shared through
 * Redis when the limiter is. Only a wrong password or code (401) counts.
 */
export async function withAddressLimit<T>(
  limiter: RateLimiter,
  ip: string,
  account: string,
  attempt: () => Promise<T>,
): Promise<T> {
  const slot = await limiter.reserve(`signin-from:${addressBlock(ip)}:${account}`, ADDRESS_FAILURES, LOCK_MS);
  if (!slot.allowed)
    throw rateLimited(
      slot.result,
      `too many failed sign-ins for this account from your address: retry in ${Math.ceil(slot.result.resetSeconds / 60)} minute(s) (the Retry-After seconds), or ask an owner for a password reset link`,
    );
  try {
    const result = await attempt();
    slot.settle(false);
    return result;
  } catch (err) {
    slot.settle(err instanceof HostpayError && err.status === 401);
    throw err;
  }
}
