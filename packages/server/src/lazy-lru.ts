import { LRUCache } from 'lru-cache';

/** An LRUCache made on first use; `made()` is it only if it was (clearing one never used has nothing to do). */
export interface LazyLru<K extends {}, V extends {}> {
  (): LRUCache<K, V>;
  made(): LRUCache<K, V> | undefined;
}

/**
 * lru-cache allocates its arrays for `max` entries when it is constructed (~200 kB for 10,000),
 * and a server holds about sixteen such caches, most for paths a given server may never serve
 * (Redis rate limits, tokens, each feature's facts): made at start they were ~18 ms of it and
 * ~3 MB of idle memory (docs/benchmarks.md). Made on first use, the cost is one check per call.
 */
export function lazyLru<K extends {}, V extends {}>(options: LRUCache.Options<K, V, unknown>): LazyLru<K, V> {
  let cache: LRUCache<K, V> | undefined;
  const get = (() => {
    cache ??= new LRUCache<K, V>(options);
    return cache;
  }) as LazyLru<K, V>;
  get.made = () => cache;
  return get;
}
