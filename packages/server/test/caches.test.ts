import { describe, expect, it } from 'vitest';
import { ANSWER_CACHE_CHARS, Caches } from '../src/cache/caches.js';

describe('read caches', () => {
  it('bound answer texts by size as well as by count: large wallet lists cannot pile up', () => {
    const caches = new Caches(() => 0);
    const big = 'x'.repeat(Math.floor(ANSWER_CACHE_CHARS / 4) + 1); // a bit over a quarter of the budget
    for (let i = 0; i < 8; i++) caches.walletBodies.set(`mer_${i}`, big);
    expect(caches.walletBodies.calculatedSize).toBeLessThanOrEqual(ANSWER_CACHE_CHARS);
    expect(caches.walletBodies.size).toBe(3);
    // The most recently stored answers are the ones kept.
    expect(caches.walletBodies.has('mer_7')).toBe(true);
    expect(caches.walletBodies.has('mer_0')).toBe(false);
  });

  it('a catalog change drops every wallet list and fee answer (they name assets and chains), and keeps keys', () => {
    const caches = new Caches(() => 0);
    caches.walletBodies.set('mer_a', 'a');
    caches.walletBodies.set('mer_b', 'b');
    caches.feeBodies.set('mer_a|USDT|1', 'fee');
    caches.keys.set('hp_a', { missing: true });
    const generation = caches.generation;
    caches.invalidateLocal({ kind: 'catalog' });
    expect([caches.walletBodies.size, caches.feeBodies.size, caches.keys.size]).toEqual([0, 0, 1]);
    expect(caches.generation).toBe(generation + 1);
  });
});
