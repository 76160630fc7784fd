import { Redis } from 'ioredis';

export interface RedisHealth {
  /** True while Redis answers; false after an error until it answers again. */
  readonly healthy: boolean;
}

/**
 * One Redis connection with the settings a request path needs: commands fail fast instead of
 * queueing while Redis is away (callers fall back to in-process state), and reconnection keeps
 * trying in the background so the service recovers by itself.
 */
export function connectRedis(url: string, onStateChange: (healthy: boolean, error?: Error) => void): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    // A connection whose Redis stops answering without closing it (network partition, frozen
    // host) is dropped after this long with commands outstanding, and reconnection takes over.
    // Without it the dead connection is kept for good: every command waits out commandTimeout
    // (a second added to each request) and the service never returns to Redis.
    socketTimeout: 1000,
    connectTimeout: 1000,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    // Commands issued in the same tick go out as one pipeline: under load, one write per tick
    // instead of one per request.
    enableAutoPipelining: true,
  });
  let healthy: boolean | undefined;
  const set = (next: boolean, error?: Error) => {
    if (healthy === next) return;
    healthy = next;
    onStateChange(next, error);
  };
  redis.on('ready', () => set(true));
  redis.on('error', (err: Error) => set(false, err));
  redis.on('end', () => set(false));
  redis.on('close', () => set(false));
  return redis;
}
