import { LRUCache } from 'lru-cache';
import { HostpayError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import { insertRow, prepared } from '../../store/prepared.js';
import { runSteps, type Steps } from '../../store/steps.js';
import type { Db } from '../../store/store.js';
import type { Insertable, QueryResult } from 'kysely';
import type { Database } from '../../store/database.js';
import type { FamilyName } from '../../chain-families/index.js';
import type { DepositAddressTable } from './tables.js';
import { deriveAddress, parseAccountKey, type AccountKey, type ChainNetwork } from './derive.js';
import { openXpub, type KeyOpener } from './sealed-key.js';

/**
 * Parsed account keys by row and sealed text: parsing and the `/0` step cost more than deriving
 * one child, and the box is opened once per key, not per address. A row's xpub never changes (a
 * new key is a new row); its sealed text does when the master key rotates, which opens it again.
 */
const parsed = new LRUCache<string, AccountKey>({ max: 64 });

/** Tests and the benchmark: how often a sealed key was opened (a miss of the cache above). */
export const keyOpens = { count: 0 };

function accountKey(box: KeyOpener, id: string, sealed: string, family: string, network: string): AccountKey {
  const cacheId = `${id}|${sealed}`;
  let key = parsed.get(cacheId);
  if (key === undefined) {
    keyOpens.count++;
    key = parseAccountKey(openXpub(box, id, sealed), family as FamilyName, network as ChainNetwork);
    parsed.set(cacheId, key);
  }
  return key;
}

const bumpIndex = prepared(['keyId'], (db, v) =>
  db
    .updateTable('account_keys')
    .set((eb) => ({ next_index: eb('next_index', '+', 1) }))
    .where('id', '=', v.keyId as string)
    .returning(['id', 'xpub_sealed', 'next_index']),
);

export interface AllocatedAddress {
  address: string;
  accountKeyId: string;
  index: number;
}

/** A key's next derivation index, taken: its counter was bumped. */
export interface ReservedIndex {
  keyId: string;
  /** The key's stored (sealed) text, opened when the address is derived. */
  xpubSealed: string;
  index: number;
}

// The catalog's row type, by table name: catalog imports this folder, so not its tables.ts.
export type AddressChain = Pick<Database['chains'], 'id' | 'symbol' | 'family' | 'network_type' | 'account_key_id'>;

/** The id of `chain`'s account key, or CHAIN_NOT_CONFIGURED. */
export function keyOf(chain: AddressChain): string {
  if (chain.account_key_id === null) {
    throw new HostpayError(
      'CHAIN_NOT_CONFIGURED',
      `chain ${chain.symbol} has no extended public key to derive deposit addresses from: the operator sets one with \`hostpay chain set-xpub ${chain.symbol} KEY\``,
      { chain: chain.symbol },
    );
  }
  return chain.account_key_id;
}

/**
 * Takes the next index of `chain`'s key: an UPDATE of its counter, which locks the row until the
 * transaction of `db` ends (so two never take the same index). Run on the store itself it is a
 * transaction of its own, and an index a failed create took is skipped, never handed out again.
 */
export function reserveIndex(db: Db, chain: AddressChain): Promise<ReservedIndex> {
  return runSteps(db, reserveIndexSteps(chain));
}

/** reserveIndex as a step of the caller's write path (store/steps.ts). */
export function* reserveIndexSteps(chain: AddressChain): Steps<ReservedIndex> {
  const keyId = keyOf(chain);
  const result: QueryResult<{ id: string; xpub_sealed: string; next_index: number | bigint }> = yield bumpIndex.step({
    keyId,
  });
  const bumped = result.rows[0];
  if (bumped === undefined) throw new Error(`account key ${chain.account_key_id} of chain ${chain.symbol} is missing`);
  return { keyId: bumped.id, xpubSealed: bumped.xpub_sealed, index: Number(bumped.next_index) - 1 };
}

/**
 * The address of a reserved index, recorded with its owner inside the caller's transaction. The
 * unique constraints on (key, index) and (chain, address) make reuse impossible even by a bug
 * elsewhere; an index is never handed back, also when its checkout expires.
 */
export async function recordAddress(
  trx: Db,
  box: KeyOpener,
  chain: AddressChain,
  reserved: ReservedIndex,
  owner: { checkoutId: string; optionId: string },
  at: string,
): Promise<AllocatedAddress> {
  const row = addressRow(box, chain, reserved, owner, at);
  await insertRow(trx, 'deposit_addresses', row);
  return { address: row.address, accountKeyId: reserved.keyId, index: reserved.index };
}

/** The `deposit_addresses` row of a reserved index (derived here, written by the caller: recordAddress, or a batch). */
export function addressRow(
  box: KeyOpener,
  chain: AddressChain,
  reserved: ReservedIndex,
  owner: { checkoutId: string; optionId: string },
  at: string,
): Insertable<DepositAddressTable> & { address: string } {
  const key = accountKey(box, reserved.keyId, reserved.xpubSealed, chain.family, chain.network_type);
  const { address } = deriveAddress(key, reserved.index);
  return {
    id: newId('adr'),
    chain_id: chain.id,
    account_key_id: reserved.keyId,
    derivation_index: reserved.index,
    address,
    checkout_id: owner.checkoutId,
    option_id: owner.optionId,
    created_at: at,
  };
}

/** The next deposit address of `chain`, taken and recorded inside the caller's transaction. */
export async function allocateAddress(
  trx: Db,
  box: KeyOpener,
  chain: AddressChain,
  owner: { checkoutId: string; optionId: string },
  at: string,
): Promise<AllocatedAddress> {
  return recordAddress(trx, box, chain, await reserveIndex(trx, chain), owner, at);
}
