import { describe, expect, it } from 'vitest';
import { Caches } from '../src/cache/caches.js';
import { lazyLru, lazyPromise } from '../src/lazy.js';

/** Caches are made on first use (lazy.ts): nothing allocated for what a server never asks. */
describe('caches made on first use', () => {
  it('a lazy cache exists only once asked for, then is the same one', () => {
    const cache = lazyLru<string, number>({ max: 3 });
    expect(cache.made()).toBeUndefined();
    cache().set('a', 1);
    expect(cache.made()).toBe(cache());
    expect(cache().get('a')).toBe(1);
    for (const k of ['b', 'c', 'd']) cache().set(k, 2);
    expect(cache().has('a')).toBe(false); // still bounded by max
  });

  it('a fact cache invalidated before its first use still caches and is emptied after', async () => {
    const caches = new Caches(() => 0);
    const facts = caches.facts<{ v: string }>(['wallets'], { merchantKeyed: true });
    await caches.invalidate({ kind: 'all' });
    facts.map.set('m1', { v: 'x' });
    expect(facts.map.get('m1')).toEqual({ v: 'x' });
    caches.keys.set('k1', { missing: true });
    await caches.invalidate({ kind: 'wallets', merchantId: 'm1' });
    expect(facts.map.has('m1')).toBe(false);
    await caches.invalidate({ kind: 'keys' });
    expect(caches.keys.size).toBe(0);
  });

  it('a lazy promise is made once and shared; a failure is forgotten and tried again', async () => {
    let calls = 0;
    const value = lazyPromise(async () => {
      calls++;
      if (calls === 1) throw new Error('not yet');
      return calls;
    });
    expect(value.made()).toBeUndefined();
    await expect(value()).rejects.toThrow('not yet');
    expect(value.made()).toBeUndefined();
    const [a, b] = await Promise.all([value(), value()]);
    expect([a, b, calls]).toEqual([2, 2, 2]);
    expect(await value()).toBe(2);
  });
});
