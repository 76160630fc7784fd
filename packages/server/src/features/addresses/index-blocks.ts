import { prepared } from '../../store/prepared.js';
import type { Db } from '../../store/store.js';
import { keyOf, type AddressChain, type ReservedIndex } from './allocate.js';

const bumpBlock = prepared(['keyId', 'count'], (db, v) =>
  db
    .updateTable('account_keys')
    .set((eb) => ({ next_index: eb('next_index', '+', v.count as number) }))
    .where('id', '=', v.keyId as string)
    .returning(['xpub_sealed', 'next_index']),
);

/** Indices taken per reservation, and how few may be left before the next is taken ahead. */
export const BLOCK = 64;
const LOW = 32;

interface KeyIndices {
  /** The key's sealed text as last read (allocate.ts opens it, once per key and sealed text). */
  xpubSealed: string;
  /** Reserved and not handed out yet, in order: [from, to) each. */
  ranges: [number, number][];
  pending: Promise<void> | undefined;
}

/**
 * PostgreSQL: a chain key's derivation indices taken in blocks. The key's counter row is one lock
 * shared by every create on every instance; taking one index per create (a statement and a commit
 * each, the row locked meanwhile) serialised all merchants' creates on it. A block of BLOCK is taken
 * in one statement (its own transaction, committed before any of its indices is used), the next one
 * ahead of need, so a create almost never waits for it. Each index is still handed out once: the
 * counter moved past the whole block before any of it is used, and the unique constraints on (key,
 * index) and (chain, address) stay. What a stopped instance had not handed out is skipped, like the
 * index of a create that failed: a gap (docs/catalog.md), of at most 2 × BLOCK per key and instance.
 */
export function indexBlocks(db: Db) {
  const keys = new Map<string, KeyIndices>();

  function refill(keyId: string, k: KeyIndices): Promise<void> {
    k.pending ??= bumpBlock(db, { keyId, count: BLOCK })
      .then(({ rows: [row] }) => {
        if (row === undefined) throw new Error(`account key ${keyId} is missing`);
        const to = Number(row.next_index);
        k.xpubSealed = row.xpub_sealed;
        k.ranges.push([to - BLOCK, to]);
      })
      .finally(() => {
        k.pending = undefined;
      });
    return k.pending;
  }

  const left = (k: KeyIndices) => k.ranges.reduce((n, [from, to]) => n + to - from, 0);

  return {
    /** The next index of `chain`'s key (CHAIN_NOT_CONFIGURED if it has none). */
    async take(chain: AddressChain): Promise<ReservedIndex> {
      const keyId = keyOf(chain);
      let k = keys.get(keyId);
      if (k === undefined) {
        k = { xpubSealed: '', ranges: [], pending: undefined };
        keys.set(keyId, k);
      }
      while (k.ranges.length === 0) await refill(keyId, k);
      const range = k.ranges[0]!;
      const index = range[0]++;
      if (range[0] === range[1]) k.ranges.shift();
      // Ahead of need; a failure here is seen (and reported) by the create that next runs dry.
      if (left(k) < LOW) refill(keyId, k).catch(() => undefined);
      return { keyId, xpubSealed: k.xpubSealed, index };
    },
  };
}

export type IndexBlocks = ReturnType<typeof indexBlocks>;
