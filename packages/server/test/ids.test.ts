import { describe, expect, it } from 'vitest';
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
});
