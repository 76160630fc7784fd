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

/** A promise made on first call and shared by the calls after; `made()` is it only if it was. */
export interface LazyPromise<T> {
  (): Promise<T>;
  made(): Promise<T> | undefined;
}

/**
 * What `make` resolves to, made on the first call and kept, unless it fails: a failure (a module
 * that did not load, a node that did not answer) is forgotten, so the next call tries again
 * instead of answering the same error for the life of the process.
 */
export function lazyPromise<T>(make: () => Promise<T>): LazyPromise<T> {
  let made: Promise<T> | undefined;
  const get = (() => {
    made ??= make().catch((err: unknown) => {
      made = undefined;
      throw err;
    });
    return made;
  }) as LazyPromise<T>;
  get.made = () => made;
  return get;
}
