import { untilAborted } from './retry.js';
import type { TokenResult } from './types.js';

/**
 * The bearer token the client obtained itself. It is renewed shortly before it expires (a
 * fifth of its lifetime early, at most a minute), and only one renewal is ever in flight:
 * every call that needs a token meanwhile waits on that one.
 */
export class TokenCache {
  private current: { value: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly issue: () => Promise<TokenResult>,
    private readonly now: () => number,
  ) {}

  /** A valid token; the caller's signal stops its wait, never the shared renewal. */
  get(signal: AbortSignal): Promise<string> {
    const current = this.current;
    if (current && this.now() < current.renewAt) return Promise.resolve(current.value);
    this.pending ??= this.renew().finally(() => {
      this.pending = undefined;
    });
    return untilAborted(this.pending, signal);
  }

  /** Forgets `value` if it is still the cached token (the server said it expired or is invalid). */
  drop(value: string): void {
    if (this.current?.value === value) this.current = undefined;
  }

  private async renew(): Promise<string> {
    const token = await this.issue();
    const lifetimeMs = token.expiresIn * 1000;
    this.current = { value: token.accessToken, renewAt: this.now() + lifetimeMs - Math.min(60_000, lifetimeMs / 5) };
    return token.accessToken;
  }
}
