import { describe, expect, it } from 'vitest';
import { readFeedMessage } from '../src/cluster/feed-message.js';

describe('change-feed messages, as both feeds (Redis, PostgreSQL) read them', () => {
  it('reads a message of ours, with or without a write id', () => {
    const scope = { kind: 'wallets', merchantId: 'm_1' };
    expect(readFeedMessage(JSON.stringify({ from: 'abc', id: '0011', scope }))).toEqual({
      from: 'abc',
      id: '0011',
      scope,
    });
    expect(readFeedMessage(JSON.stringify({ from: 'abc', scope: { kind: 'all' } }))).toEqual({
      from: 'abc',
      id: undefined,
      scope: { kind: 'all' },
    });
  });

  it('reads anything else as null (drop every cache), without throwing', () => {
    for (const text of [
      '',
      'null',
      'not json',
      '42',
      '"text"',
      '[]',
      '{}',
      JSON.stringify({ from: 1, scope: { kind: 'all' } }),
      JSON.stringify({ from: 'abc' }),
      JSON.stringify({ from: 'abc', scope: null }),
      JSON.stringify({ from: 'abc', scope: { kind: 7 } }),
      JSON.stringify({ from: 'abc', scope: { kind: 'wallets', merchantId: 3 } }),
    ]) {
      expect(readFeedMessage(text), text).toBeNull();
    }
  });
});
