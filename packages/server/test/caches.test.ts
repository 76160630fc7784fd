import { describe, expect, it } from 'vitest';
import { ANSWER_CACHE_CHARS, Caches } from '../src/cache/caches.js';

describe('read caches', () => {
  it('bound answer texts by size as well as by count: large wallet lists cannot pile up', () => {
    const caches = new Caches(() => 0);
    const walletBodies = caches.answers(['catalog'], { merchantKeyed: true });
    const big = 'x'.repeat(Math.floor(ANSWER_CACHE_CHARS / 4) + 1); // a bit over a quarter of the budget
    for (let i = 0; i < 8; i++) walletBodies.map.set(`mer_${i}`, big);
    expect(walletBodies.map.calculatedSize).toBeLessThanOrEqual(ANSWER_CACHE_CHARS);
    expect(walletBodies.map.size).toBe(3);
    // The most recently stored answers are the ones kept.
    expect(walletBodies.map.has('mer_7')).toBe(true);
    expect(walletBodies.map.has('mer_0')).toBe(false);
  });

  it('a catalog change drops every wallet list and fee answer (they name assets and chains), and keeps keys', () => {
    const caches = new Caches(() => 0);
    const walletBodies = caches.answers(['catalog'], { merchantKeyed: true });
    const feeBodies = caches.answers(['fees', 'catalog']);
    walletBodies.map.set('mer_a', 'a');
    walletBodies.map.set('mer_b', 'b');
    feeBodies.map.set('mer_a|USDT|1', 'fee');
    caches.keys.set('hp_a', { missing: true });
    const generation = caches.generation;
    caches.invalidateLocal({ kind: 'catalog' });
    expect([walletBodies.map.size, feeBodies.map.size, caches.keys.size]).toEqual([0, 0, 1]);
    expect(caches.generation).toBe(generation + 1);
  });

  it("a scope about one merchant drops only that merchant's entry of a merchant-keyed cache, and clears no other", () => {
    const caches = new Caches(() => 0);
    const walletBodies = caches.answers(['catalog'], { merchantKeyed: true });
    const feeBodies = caches.answers(['fees', 'catalog']);
    walletBodies.map.set('mer_a', 'a');
    walletBodies.map.set('mer_b', 'b');
    feeBodies.map.set('mer_a|USDT|1', 'fee');
    caches.keys.set('hp_a', { missing: true });
    caches.invalidateLocal({ kind: 'wallets', merchantId: 'mer_a' });
    expect([...walletBodies.map.keys()]).toEqual(['mer_b']);
    expect([feeBodies.map.size, caches.keys.size]).toEqual([1, 1]);
    caches.invalidateLocal({ kind: 'keys' });
    expect([walletBodies.map.size, feeBodies.map.size, caches.keys.size]).toEqual([1, 1, 0]);
    caches.invalidateLocal({ kind: 'all' });
    expect([walletBodies.map.size, feeBodies.map.size]).toEqual([0, 0]);
  });
});
