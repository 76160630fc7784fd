import { type LazyLru, lazyLru } from '../lazy.js';
import type { TokenClaims } from './tokens.js';

/**
 * Credentials already verified for body-less requests. A client sends the same api-key,
 * timestamp, signature and bearer on every GET within one second, so on the hot path the HMAC
 * and the token check run once per key per second instead of once per request.
 *
 * Keyed by (key id, timestamp, signature); an entry counts only for the same secret object it was
 * checked with (a rotated secret misses) and the same Authorization header, and only until its
 * timestamp leaves the accepted window or its token expires. Only successes are stored, so the
 * timing of failures (unknown key vs wrong signature) is untouched. The map is bounded (lru-cache).
 */
export interface VerifiedEntry {
  secret: Buffer;
  authorization: string;
  claims: TokenClaims | null;
  expiresAt: number;
}

export class VerifiedCache {
  // Bounded, least recently used first out: a burst of distinct valid requests cannot grow it.
  // Expiry is checked on read against the caller's clock (tests move it), not lru-cache's TTL.
  private readonly entries: LazyLru<string, VerifiedEntry>;

  constructor(maxEntries = 10_000) {
    this.entries = lazyLru({ max: maxEntries });
  }

  get(
    keyId: string,
    timestamp: string,
    signature: string,
    secret: Buffer,
    authorization: string,
    nowMs: number,
  ): VerifiedEntry | undefined {
    const entry = this.entries().get(keyId + ' ' + timestamp + ' ' + signature);
    if (
      entry === undefined ||
      entry.secret !== secret ||
      entry.authorization !== authorization ||
      entry.expiresAt <= nowMs
    )
      return undefined;
    return entry;
  }

  /**
   * True when exactly these credentials (key id, timestamp, signature, Authorization) passed
   * within their window: such a request repeats one that went over the wire and was accepted, so
   * it cannot be a guess, and the failed-attempt gate need not hold it up.
   */
  seen(keyId: string, timestamp: string, signature: string, authorization: string, nowMs: number): boolean {
    return this.find(keyId, timestamp, signature, authorization, nowMs) !== undefined;
  }

  /** The entry `seen` finds, for the caller to check its secret against the key's (one lookup for both). */
  find(
    keyId: string,
    timestamp: string,
    signature: string,
    authorization: string,
    nowMs: number,
  ): VerifiedEntry | undefined {
    const entry = this.entries().get(keyId + ' ' + timestamp + ' ' + signature);
    return entry !== undefined && entry.authorization === authorization && entry.expiresAt > nowMs ? entry : undefined;
  }

  set(keyId: string, timestamp: string, signature: string, entry: VerifiedEntry): void {
    this.entries().set(keyId + ' ' + timestamp + ' ' + signature, entry);
  }

  get size(): number {
    return this.entries.made()?.size ?? 0;
  }
}
