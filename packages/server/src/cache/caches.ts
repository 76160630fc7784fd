import type { LRUCache } from 'lru-cache';
import { type LazyLru, lazyLru } from '../lazy.js';
import type { ApiKeyAuth } from '../auth/ports.js';

/** Characters of answer text each answer cache may hold (~64 MB of one-byte strings). */
export const ANSWER_CACHE_CHARS = 64 * 1024 * 1024;

/** A key id looked up and not found: cached like a found one. */
export const MISSING_KEY: { readonly missing: true } = Object.freeze({ missing: true });

/**
 * What a write changed, as the caches are told (and the other instances, as JSON). `all` and `keys`
 * (the API keys authentication reads) are the kernel's; the features name their own kinds, and a
 * scope about one merchant carries its `merchantId`.
 */
export type CacheScope = { kind: 'all' } | { kind: 'keys' } | { kind: string; merchantId?: string | undefined };

/** What a cache may hold: anything but null and undefined (lru-cache's bound). */
type Cached = NonNullable<unknown>;

/**
 * Values a feature derived from the store (facts it reads often, whole answer texts), dropped
 * with the scope kinds named in `clearOn`. `merchantKeyed`: keys are merchant ids, so a scope
 * about one merchant drops only that merchant's entry (a posting must not empty everyone's).
 */
export class FactCache<V extends Cached> {
  readonly #map: LazyLru<string, V>;
  constructor(
    readonly clearOn: readonly string[],
    readonly merchantKeyed = false,
    max = 10_000,
    /** Bounds the entries by their total size too (answer texts: one merchant's can be large). */
    sizeOf?: (value: V) => number,
  ) {
    // Made on first use (lazy.ts): a feature this server never asks costs nothing.
    this.#map = lazyLru<string, V>(
      sizeOf === undefined ? { max } : { max, maxSize: ANSWER_CACHE_CHARS, sizeCalculation: sizeOf },
    );
  }

  get map(): LRUCache<string, V> {
    return this.#map();
  }

  drop(scope: CacheScope): void {
    const map = this.#map.made();
    if (map === undefined) return;
    if ('merchantId' in scope && scope.merchantId !== undefined && this.merchantKeyed) map.delete(scope.merchantId);
    else if (scope.kind === 'all' || this.clearOn.includes(scope.kind)) map.clear();
  }
}

/**
 * The server's read caches and the one place that invalidates them. Writes through this process
 * call `invalidate`; writes by another process are noticed through the store's external version
 * (checked on every read), which drops everything. A `generation` taken before a read and
 * checked before storing its result keeps a read that raced a write from caching stale data.
 */
export class Caches {
  // Bounded (least recently used goes first): keys of these maps come from clients (key ids,
  // amounts), so they must not grow without limit.
  /** MISSING_KEY = known not to exist (so unknown key ids cost the same as known ones). */
  readonly #keys = lazyLru<string, ApiKeyAuth | typeof MISSING_KEY>({ max: 10_000 });
  get keys(): LRUCache<string, ApiKeyAuth | typeof MISSING_KEY> {
    return this.#keys();
  }
  readonly #facts: FactCache<Cached>[] = [];
  #generation = 0;
  #externalVersion: number;
  #syncedAt = -Infinity;

  constructor(
    private readonly externalVersion: () => number,
    private readonly opts: {
      /** Tells other instances (change feed); called after every local invalidation. */
      publish?: (scope: CacheScope) => Promise<void> | void;
      /** False while invalidations from other instances could be missed: caches are bypassed. */
      enabled?: () => boolean;
    } = {},
  ) {
    this.#externalVersion = externalVersion();
  }

  /** Whether reads may be served from memory right now. */
  get enabled(): boolean {
    return this.opts.enabled?.() ?? true;
  }

  /**
   * Call before serving from a cache: drops everything if another process wrote. Asked at most
   * once per millisecond (a request reads two caches; under load the PRAGMA was ~10 % of CPU), so
   * a commit by another process is seen by every request that starts 1 ms after it.
   */
  sync(): void {
    const now = performance.now();
    if (now - this.#syncedAt < 1) return;
    this.#syncedAt = now;
    const v = this.externalVersion();
    if (v !== this.#externalVersion) {
      this.#externalVersion = v;
      this.invalidateLocal({ kind: 'all' });
    }
  }

  get generation(): number {
    return this.#generation;
  }

  /** A fact cache that this object invalidates with the others. */
  facts<V extends object>(
    clearOn: readonly string[],
    opts: { merchantKeyed?: boolean; max?: number } = {},
  ): FactCache<V> {
    return this.#register(new FactCache<V>(clearOn, opts.merchantKeyed ?? false, opts.max));
  }

  /**
   * A cache of whole answers (JSON text ready to send), bounded by count and by characters
   * (ANSWER_CACHE_CHARS), invalidated with the others.
   */
  answers(clearOn: readonly string[], opts: { merchantKeyed?: boolean } = {}): FactCache<string> {
    return this.#register(new FactCache<string>(clearOn, opts.merchantKeyed ?? false, 10_000, (body) => body.length));
  }

  #register<V extends Cached>(cache: FactCache<V>): FactCache<V> {
    this.#facts.push(cache as unknown as FactCache<Cached>);
    return cache;
  }

  /**
   * `map[key]`, loading it on a miss. A value read while a write invalidated is returned but not
   * kept (the generation moved), so a cache never holds what a committed write replaced.
   */
  through<V extends {}>(map: LRUCache<string, V>, key: string, load: () => Promise<V>): V | Promise<V> {
    if (!this.enabled) return load();
    this.sync();
    const hit = map.get(key);
    if (hit !== undefined) return hit;
    const generation = this.#generation;
    return load().then((value) => {
      if (this.#generation === generation) map.set(key, value);
      return value;
    });
  }

  /**
   * A write here changed `scope`: drop it locally and tell the other instances. Writers await it
   * before answering, so that once a write has answered no instance serves what it replaced
   * (a revoked key is refused, a posting is listed, by every instance from the next request).
   */
  async invalidate(scope: CacheScope): Promise<void> {
    this.invalidateLocal(scope);
    await this.opts.publish?.(scope);
  }

  /** Drops `scope` in this instance only (a message from another instance, or a resync). */
  invalidateLocal(scope: CacheScope): void {
    this.#generation++;
    for (const facts of this.#facts) facts.drop(scope);
    if (scope.kind === 'keys' || scope.kind === 'all') this.#keys.made()?.clear();
  }
}
