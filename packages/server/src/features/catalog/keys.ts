import { HostpayError } from '../../errors.js';
import { newId, nowIso } from '../../store/ids.js';
import type { Db } from '../../store/store.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import type { AdminDeps } from '../../admin/deps.js';
import { page, type PageRequest } from '../../admin/pagination.js';
import { parseAccountKey, type ChainFamily, type ChainNetwork } from '../addresses/derive.js';
import { keyFingerprint } from './fields.js';
import {
  chainsUsingKey,
  depositAddressQuery,
  findAccountKey,
  requireChain,
  type AccountKeyRow,
  type ChainRow,
} from './queries.js';

export interface AddressFilter {
  chain?: string | undefined;
  checkoutId?: string | undefined;
}

async function xpubView(db: Db, chain: ChainRow, key: AccountKeyRow) {
  return {
    chain: chain.symbol,
    family: chain.family,
    networkType: chain.network_type,
    accountKeyId: key.id,
    xpub: key.xpub,
    fingerprint: keyFingerprint(key.xpub),
    nextIndex: Number(key.next_index),
    chains: await chainsUsingKey(db, key.id),
    createdAt: key.created_at,
  };
}

/**
 * The extended public keys deposit addresses are derived from, and the addresses handed out.
 * A key is stored once per (family, network type) in its xpub/tpub spelling, so the zpub and the
 * xpub of one key, or one xpub given to two EVM chains, are the same row with one counter: an
 * address is never handed out twice. Switching a chain to another key starts that key's counter;
 * the addresses already given out keep their key and index.
 */
export function accountKeyAdmin({ store, caches }: AdminDeps) {
  const db = store.db;

  return {
    async setChainXpub(symbol: string, xpub: string, ctx: AuditContext) {
      const view = await store.writeTransaction(async (trx) => {
        const chain = await requireChain(trx, symbol);
        const parsed = parseAccountKey(xpub, chain.family as ChainFamily, chain.network_type as ChainNetwork);
        // xpub/tpub: the one spelling both forms share (and the one allocateAddress parses).
        const normalised = parsed.hd.publicExtendedKey;
        // Insert-or-keep on the unique (family, network type, key): two chains given the same key
        // at the same moment still end up on one row.
        const fresh = {
          id: newId('akey'),
          family: chain.family,
          network_type: chain.network_type,
          xpub: normalised,
          next_index: 0,
          created_at: nowIso(),
        };
        await trx
          .insertInto('account_keys')
          .values(fresh)
          .onConflict((oc) => oc.columns(['family', 'network_type', 'xpub']).doNothing())
          .execute();
        const key = await findAccountKey(trx, chain.family, chain.network_type, normalised);
        if (key === undefined) throw new Error(`account key of chain ${chain.symbol} vanished after insert`);
        await trx.updateTable('chains').set({ account_key_id: key.id }).where('id', '=', chain.id).execute();
        const previous =
          chain.account_key_id === null
            ? undefined
            : await trx
                .selectFrom('account_keys')
                .selectAll()
                .where('id', '=', chain.account_key_id)
                .executeTakeFirst();
        await recordAudit(trx, ctx, {
          action: 'chain.set_xpub',
          objectType: 'chain',
          objectId: chain.id,
          before: previous === undefined ? null : { accountKeyId: previous.id, xpub: previous.xpub },
          after: { accountKeyId: key.id, xpub: key.xpub, given: parsed.text },
        });
        return xpubView(trx, { ...chain, account_key_id: key.id }, key);
      });
      // Which options a checkout can offer depends on the chain having a key.
      await caches.invalidate({ kind: 'catalog' });
      return view;
    },

    async getChainXpub(symbol: string) {
      const chain = await requireChain(db, symbol);
      const key =
        chain.account_key_id === null
          ? undefined
          : await db.selectFrom('account_keys').selectAll().where('id', '=', chain.account_key_id).executeTakeFirst();
      if (key === undefined) {
        throw new HostpayError(
          'NOT_FOUND',
          `chain ${chain.symbol} has no extended public key yet: set one with PUT /admin/v1/chains/${chain.symbol}/xpub (hostpay chain set-xpub ${chain.symbol} KEY)`,
        );
      }
      return xpubView(db, chain, key);
    },

    async listAddresses(filter: AddressFilter & PageRequest) {
      const chainId = filter.chain === undefined ? undefined : (await requireChain(db, filter.chain)).id;
      return page(
        depositAddressQuery(db, { chainId, checkoutId: filter.checkoutId }),
        'deposit_addresses.created_at',
        filter,
        (r) => ({
          id: r.id,
          address: r.address,
          chain: r.chain_symbol,
          index: Number(r.derivation_index),
          accountKeyId: r.account_key_id,
          checkoutId: r.checkout_id,
          optionId: r.option_id,
          createdAt: r.created_at,
        }),
      );
    },
  };
}
