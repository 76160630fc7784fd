import { HostpayError } from '../../errors.js';
import { newId, nowIso } from '../../store/ids.js';
import type { Db } from '../../store/store.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import type { AdminDeps } from '../../admin/deps.js';
import { page, type PageRequest } from '../../admin/pagination.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { FamilyName } from '../../chain-families/index.js';
import { parseAccountKey, type ChainNetwork } from '../addresses/derive.js';
import { accountKeyOwner, openXpub, xpubHash } from '../addresses/sealed-key.js';
import { keyFingerprint, keyPreview } from './fields.js';
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

/**
 * The stored columns of key `id` with xpub/tpub text `xpub`: sealed, with the lookup hash and
 * what the operator's lists show (a preview and the BIP-32 fingerprint, neither enough to derive).
 */
export function sealedKeyColumns(box: Pick<SecretBox, 'seal'>, id: string, xpub: string) {
  return {
    xpub_sealed: box.seal(xpub, accountKeyOwner(id)),
    xpub_hash: xpubHash(xpub),
    xpub_preview: keyPreview(xpub),
    xpub_fingerprint: keyFingerprint(xpub),
  };
}

/** What the audit log keeps of a key: never the key itself (it links every deposit address). */
const auditedKey = (key: AccountKeyRow) => ({
  accountKeyId: key.id,
  fingerprint: key.xpub_fingerprint,
  preview: key.xpub_preview,
});

/** The whole key: only on the operator's GET and PUT of /chains/{symbol}/xpub. */
async function xpubView(db: Db, box: SecretBox, chain: ChainRow, key: AccountKeyRow) {
  const xpub = openXpub(box, key.id, key.xpub_sealed);
  return {
    chain: chain.symbol,
    family: chain.family,
    networkType: chain.network_type,
    accountKeyId: key.id,
    xpub,
    fingerprint: keyFingerprint(xpub),
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
export function accountKeyAdmin({ store, caches, box }: AdminDeps) {
  const db = store.db;

  return {
    async setChainXpub(symbol: string, xpub: string, ctx: AuditContext) {
      const view = await store.writeTransaction(async (trx) => {
        const chain = await requireChain(trx, symbol);
        const parsed = parseAccountKey(xpub, chain.family as FamilyName, chain.network_type as ChainNetwork);
        // xpub/tpub: the one spelling both forms share (and the one allocateAddress parses).
        const normalised = parsed.hd.publicExtendedKey;
        // Insert-or-keep on the unique (family, network type, key hash): two chains given the same
        // key at the same moment still end up on one row.
        const id = newId('akey');
        const fresh = {
          id,
          family: chain.family,
          network_type: chain.network_type,
          ...sealedKeyColumns(box, id, normalised),
          next_index: 0,
          created_at: nowIso(),
        };
        await trx
          .insertInto('account_keys')
          .values(fresh)
          .onConflict((oc) => oc.columns(['family', 'network_type', 'xpub_hash']).doNothing())
          .execute();
        const key = await findAccountKey(trx, chain.family, chain.network_type, fresh.xpub_hash);
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
          before: previous === undefined ? null : auditedKey(previous),
          after: auditedKey(key),
        });
        return xpubView(trx, box, { ...chain, account_key_id: key.id }, key);
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
      return xpubView(db, box, chain, key);
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
