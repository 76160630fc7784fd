import type { CacheScope } from '../cache/caches.js';

/** A change-feed message: the sending instance, the write's id (the Redis feed's, for its acks), what it changed. */
export interface FeedMessage {
  from: string;
  id: string | undefined;
  scope: CacheScope;
}

/**
 * A received change-feed message, or null for anything not of ours (a hand-typed PUBLISH or
 * NOTIFY, a newer release's shape), which both feeds read as "drop every cache": the safe
 * reading. Never throws: a feed's listener runs outside any try (ioredis and pg emit from their
 * sockets), and a throw there would take the process down.
 */
export function readFeedMessage(text: string): FeedMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object') return null;
  const { from, id, scope } = parsed as { from?: unknown; id?: unknown; scope?: unknown };
  if (typeof from !== 'string' || !isScope(scope)) return null;
  return { from, id: typeof id === 'string' ? id : undefined, scope };
}

/** A scope as `Caches.invalidateLocal` reads it. */
function isScope(scope: unknown): scope is CacheScope {
  if (scope === null || typeof scope !== 'object') return false;
  const s = scope as { kind?: unknown; merchantId?: unknown };
  return typeof s.kind === 'string' && (s.merchantId === undefined || typeof s.merchantId === 'string');
}
