import { sql } from 'kysely';
import type { Store } from '../store/store.js';
import { MemoryRateLimiter, type RateLimiter } from '../auth/rate-limit.js';
import type { CacheScope } from '../cache/caches.js';
import type { PgChangeFeed } from './pg-change-feed.js';

export type RedisState = 'disabled' | 'up' | 'down';

/**
 * State that instances must agree on: rate-limit counters and cache invalidations. With
 * HOSTPAY_REDIS_URL they live in Redis; without it, in this process (one instance). When Redis
 * goes away the service keeps answering with in-process limits and uncached reads, warns once,
 * and returns to Redis by itself when it is back.
 */
export interface SharedState {
  readonly rateLimiter: RateLimiter;
  readonly redis: RedisState;
  /** Tells the other instances; resolves when Redis took the message or could not (never rejects). */
  publish(scope: CacheScope): Promise<void>;
  /** False while cache invalidations from other instances could be missed. */
  readonly cachesSafe: boolean;
  /**
   * Sets `key` for `ttlMs` unless it exists (single-use signatures, cluster/used-signatures.ts):
   * true when this call set it, false when it was there; undefined without Redis (not configured
   * or unreachable), for the caller to decide in the store.
   */
  claimOnce(key: string, ttlMs: number): Promise<boolean | undefined>;
  close(): Promise<void>;
}

export interface SharedStateEvents {
  onRemoteInvalidation(scope: CacheScope): void;
  warn(message: string): void;
  info(message: string): void;
}

/** Without Redis on PostgreSQL: where LISTEN/NOTIFY runs. */
export interface PgFeedOptions {
  url: string;
  channel: string;
  notify(channel: string, payload: string): Promise<void>;
}

/**
 * The PostgreSQL notification feed of a store (without Redis): a channel per schema, notified
 * through the store's own pool. SQLite needs none (PRAGMA data_version tells it of other writers).
 */
export function pgFeedOf(store: Store, url: string, schema: string | undefined): PgFeedOptions | undefined {
  if (store.dialect !== 'postgres') return undefined;
  return {
    url,
    channel: `hostpay_invalidate_${schema || 'public'}`,
    notify: async (channel, payload) => {
      await sql`select pg_notify(${channel}, ${payload})`.execute(store.db);
    },
  };
}

/**
 * ioredis and pg are imported only when configured: together they are ~120 ms of the start-up of
 * an embedded (SQLite) server that uses neither.
 */
/** How long a Redis that has never been up may take before it is reported unreachable. */
export const STARTUP_GRACE_MS = 2000;

export async function createSharedState(
  redisUrl: string,
  prefix: string,
  events: SharedStateEvents,
  pgFeed?: PgFeedOptions,
): Promise<SharedState> {
  if (redisUrl === '') {
    // One instance: in-process limits. On SQLite, data_version tells the caches about other
    // processes; on PostgreSQL, LISTEN/NOTIFY does (the CLI, or another instance, may write).
    let feed: PgChangeFeed | undefined;
    if (pgFeed) {
      const { PgChangeFeed } = await import('./pg-change-feed.js');
      feed = new PgChangeFeed(pgFeed.url, pgFeed.channel, pgFeed.notify, events.onRemoteInvalidation);
    }
    return {
      rateLimiter: new MemoryRateLimiter(),
      redis: 'disabled',
      publish: async (scope) => feed?.publish(scope),
      get cachesSafe() {
        return feed === undefined || feed.ready;
      },
      claimOnce: async () => undefined,
      close: async () => feed?.close(),
    };
  }
  let state: RedisState = 'down';
  let warned = false;
  // Our own close ends the connections too: that is a shutdown, not an outage to warn about.
  let closing = false;
  // Start-up is not an outage: a first connection that fails (a connect timeout while start-up
  // work holds the event loop, say) and succeeds on its retry 0.2 s later said "unreachable" and
  // "back" at every start. Until the first connection is up, a failure is reported only if Redis
  // is still not up STARTUP_GRACE_MS later; after that, at once.
  let everUp = false;
  let startup: NodeJS.Timeout | undefined;
  const warn = (error?: Error) => {
    warned = true;
    events.warn(
      `Redis unreachable (${error?.message ?? 'connection closed'}): rate limits are per instance and reads bypass caches until it is back`,
    );
  };
  const onState = (healthy: boolean, error?: Error) => {
    if (closing) return;
    state = healthy ? 'up' : 'down';
    if (healthy) {
      everUp = true;
      clearTimeout(startup);
    }
    if (!healthy && !warned && !everUp) {
      startup ??= setTimeout(() => {
        if (!closing && state === 'down' && !warned) warn(error);
      }, STARTUP_GRACE_MS).unref();
    } else if (!healthy && !warned) {
      warn(error);
    } else if (healthy && warned) {
      warned = false;
      events.info('Redis is back: shared rate limits and cache invalidation resumed');
    }
  };
  const [{ connectRedis }, { RedisChangeFeed, ACK_WAIT_MS }, { RedisRateLimiter }, { batchedClaims }] =
    await Promise.all([
      import('./redis.js'),
      import('./change-feed.js'),
      import('./redis-rate-limiter.js'),
      import('./claim-batch.js'),
    ]);
  const publisher = connectRedis(redisUrl, onState);
  const subscriber = connectRedis(redisUrl, () => undefined);
  let ackWarnedAt = Number.NEGATIVE_INFINITY;
  const feed = new RedisChangeFeed(publisher, subscriber, events.onRemoteInvalidation, `${prefix}invalidate`, {
    onAckTimeout: () => {
      // At most once a minute: a stuck instance would otherwise log once per write.
      if (Date.now() - ackWarnedAt < 60_000) return;
      ackWarnedAt = Date.now();
      events.warn(
        `an instance did not confirm a cache invalidation within ${ACK_WAIT_MS} ms: the write answered anyway; an instance that stays silent is frozen or overloaded, and may serve what the write replaced until its Redis subscription is dropped`,
      );
    },
  });
  const limiter = new RedisRateLimiter(publisher, (err) => onState(false, err), `${prefix}rl:`);
  const claim = batchedClaims(publisher, (err) => onState(false, err));
  return {
    rateLimiter: limiter,
    get redis() {
      return state;
    },
    publish: (scope) => feed.publish(scope),
    get cachesSafe() {
      return state === 'up' && feed.ready;
    },
    async claimOnce(key, ttlMs) {
      if (state !== 'up') return undefined;
      return claim(`${prefix}${key}`, ttlMs);
    },
    close: () => {
      closing = true;
      clearTimeout(startup);
      return feed.close();
    },
  };
}
