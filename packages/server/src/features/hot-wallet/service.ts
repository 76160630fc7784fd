import type { SecretBox } from '../../crypto/secret-box.js';
import { HostpayError } from '../../errors.js';
import { invalid } from '../../admin/deps.js';
import type { Db, Store } from '../../store/store.js';
import type { HotWalletTable } from './tables.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { requireChain } from '../catalog/queries.js';
import { hotWalletOwner, normaliseKey } from './key.js';
import { findFamily } from '../../chain-families/index.js';

/** Transactions the wallet still follows: their nonce and fees belong to its address. */
export const OPEN_STATUSES = ['signed', 'broadcast', 'mined'] as const;

export interface HotWalletRow extends HotWalletTable {
  symbol: string;
}

export function hotWalletQuery(db: Db) {
  return db
    .selectFrom('hot_wallets as h')
    .innerJoin('chains as c', 'c.id', 'h.chain_id')
    .selectAll('h')
    .select('c.symbol as symbol');
}

export async function openTransactions(db: Db, chainId: string): Promise<number> {
  const row = await db
    .selectFrom('hot_wallet_txs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('chain_id', '=', chainId)
    .where('status', 'in', [...OPEN_STATUSES])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Transactions in flight the node forgot and refused again (forgotten.ts): each needs an operator. */
export async function forgottenTransactions(db: Db, chainId: string): Promise<number> {
  const row = await db
    .selectFrom('hot_wallet_txs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('chain_id', '=', chainId)
    .where('status', 'in', ['signed', 'broadcast'])
    .where('forgotten_at', 'is not', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** What answers and the audit trail show of a hot wallet: never the key, in any form. */
function hotWalletView(h: HotWalletRow, open: number, at: string, forgotten = 0) {
  const leaseLive =
    h.lease_owner !== null && h.lease_expires_at !== null && new Date(h.lease_expires_at).toISOString() > at;
  return {
    chain: h.symbol,
    address: h.address,
    nextNonce: h.next_nonce === null ? null : Number(h.next_nonce),
    openTransactions: open,
    forgottenTransactions: forgotten,
    lastError: h.last_error,
    lastErrorAt: h.last_error_at === null ? null : new Date(h.last_error_at).toISOString(),
    senderHolder: leaseLive ? h.lease_owner : null,
    createdAt: new Date(h.created_at).toISOString(),
    updatedAt: new Date(h.updated_at).toISOString(),
  };
}
export type HotWalletView = ReturnType<typeof hotWalletView>;

export interface HotWalletAdminOptions {
  store: Store;
  box: SecretBox;
  now: () => number;
  /** A hot wallet changed on this instance: the sender looks at the list now. */
  changed: () => void;
}

/**
 * The operators' side of the hot wallets: one key per EVM chain, given or generated here, sealed
 * under the master key at once and never shown again; answers and the audit trail carry the
 * address only.
 */
export function hotWalletAdmin(opts: HotWalletAdminOptions) {
  const { store, box } = opts;
  const db = store.db;
  const at = () => new Date(opts.now()).toISOString();

  async function find(symbol: string): Promise<HotWalletRow | undefined> {
    return hotWalletQuery(db).where('c.symbol', '=', symbol.toUpperCase()).executeTakeFirst();
  }
  async function require(symbol: string): Promise<HotWalletRow> {
    const h = await find(symbol);
    if (h === undefined)
      throw new HostpayError(
        'NOT_FOUND',
        `chain ${symbol.toUpperCase()} has no hot wallet: set one with PUT /admin/v1/chains/${symbol.toUpperCase()}/hot-wallet (hostpay chain set-hot-wallet ${symbol.toUpperCase()} --generate)`,
      );
    return h;
  }
  const refuseInFlight = (symbol: string, open: number, what: string): void => {
    if (open > 0)
      invalid(
        `the hot wallet of ${symbol} has ${open} transaction(s) in flight, whose nonces belong to its address: ${what} once they are confirmed (GET /admin/v1/chains/${symbol}/hot-wallet shows openTransactions)`,
      );
  };

  return {
    /** Sets (or generates, without a key) the chain's hot wallet; answers the address only. */
    async setHotWallet(symbol: string, req: { privateKey?: string | undefined }, audit: AuditContext) {
      const chain = await requireChain(db, symbol.toUpperCase());
      if (findFamily(chain.family)?.hotWallet !== true)
        invalid(
          `chain ${chain.symbol} is a ${chain.family} chain: hot wallets send on EVM chains only; pay ${chain.family} payouts with the manual sender`,
        );
      const { privateKeyToAccount, generatePrivateKey } = await import('viem/accounts');
      let key = generatePrivateKey();
      if (req.privateKey !== undefined) {
        const given = normaliseKey(req.privateKey);
        // The message never quotes what was sent: it may be a key with a typo.
        if (given === null) invalid('privateKey must be 32 bytes in hex (64 hex digits, 0x optional)');
        key = given;
      }
      const address = privateKeyToAccount(key).address.toLowerCase();
      const before = await find(chain.symbol);
      if (before !== undefined && before.address !== address)
        refuseInFlight(chain.symbol, await openTransactions(db, chain.id), 'replace the key');
      const now = at();
      const sealed = box.seal(key, hotWalletOwner(chain.id));
      await store.writeTransaction(async (trx) => {
        if (before === undefined) {
          await trx
            .insertInto('hot_wallets')
            .values({
              chain_id: chain.id,
              address,
              key_sealed: sealed,
              next_nonce: null,
              last_error: null,
              last_error_at: null,
              lease_owner: null,
              lease_expires_at: null,
              created_at: now,
              updated_at: now,
            })
            .execute();
        } else {
          // Another address starts its own nonces; the same key keeps them.
          await trx
            .updateTable('hot_wallets')
            .set({
              address,
              key_sealed: sealed,
              updated_at: now,
              last_error: null,
              ...(before.address === address ? {} : { next_nonce: null }),
            })
            .where('chain_id', '=', chain.id)
            .execute();
        }
        await recordAudit(trx, audit, {
          action: 'chain.hot_wallet.set',
          objectType: 'chain',
          objectId: chain.id,
          before: before === undefined ? null : { chain: chain.symbol, address: before.address },
          after: { chain: chain.symbol, address, generated: req.privateKey === undefined },
        });
      });
      opts.changed();
      return { chain: chain.symbol, address };
    },

    async getHotWallet(symbol: string) {
      const h = await require(symbol);
      const [open, forgotten] = await Promise.all([
        openTransactions(db, h.chain_id),
        forgottenTransactions(db, h.chain_id),
      ]);
      return hotWalletView(h, open, at(), forgotten);
    },

    async deleteHotWallet(symbol: string, audit: AuditContext) {
      const h = await require(symbol);
      const open = await openTransactions(db, h.chain_id);
      refuseInFlight(h.symbol, open, 'remove it');
      await store.writeTransaction(async (trx) => {
        await trx.deleteFrom('hot_wallets').where('chain_id', '=', h.chain_id).execute();
        await recordAudit(trx, audit, {
          action: 'chain.hot_wallet.delete',
          objectType: 'chain',
          objectId: h.chain_id,
          before: { chain: h.symbol, address: h.address },
          after: null,
        });
      });
      opts.changed();
      return { chain: h.symbol, address: h.address };
    },
  };
}

export type HotWalletAdmin = ReturnType<typeof hotWalletAdmin>;
