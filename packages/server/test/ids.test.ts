import { describe, expect, it } from 'vitest';
import { newCheckoutId } from '../src/features/checkouts/create.js';
import { newId, randomChunk } from '../src/store/ids.js';

describe('ids', () => {
  it('random chunks from the pool are fresh and never change after they are handed out', () => {
    const first = randomChunk(32);
    const copy = Buffer.from(first);
    const seen = new Set<string>();
    // 4096-byte pool: 1,000 chunks of 20 cross several refills.
    for (let i = 0; i < 1000; i++) seen.add(randomChunk(20).toString('hex'));
    expect(seen.size).toBe(1000);
    expect(first.equals(copy)).toBe(true);
    expect(() => randomChunk(5000)).toThrow(RangeError);
  });

  it('ids carry their prefix, sort in creation order and do not repeat', () => {
    const ids = Array.from({ length: 5000 }, () => newId('chk'));
    expect(ids.every((id) => /^chk_[0-9a-z]{24}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('checkout ids: the creation time first (so they index in order), then 160 random bits, the capability', () => {
    const t0 = Date.parse('2026-11-24T01:00:00.000Z');
    const ids = Array.from({ length: 2000 }, (_, i) => newCheckoutId(t0 + Math.floor(i / 10)));
    expect(ids.every((id) => /^chk_[0-9a-z]{40}$/.test(id))).toBe(true);
    expect(Number.parseInt(ids[0]!.slice(4, 13), 36)).toBe(t0);
    // Ids of later milliseconds sort after; within one millisecond only the random part differs.
    for (let i = 10; i < ids.length; i += 10) expect(ids[i - 1]! < ids[i]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const random = ids.map((id) => [...id.slice(13)].reduce((n, c) => n * 36n + BigInt(Number.parseInt(c, 36)), 0n));
    // 31 base-36 digits hold the 160 bits; over 2,000 ids some use the top bits (not a short random part padded).
    expect(random.every((r) => r < 1n << 160n)).toBe(true);
    expect(random.some((r) => r >= 1n << 156n)).toBe(true);
  });
});
