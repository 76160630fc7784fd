import { HostpayError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { invalid } from '../../admin/deps.js';
import { checkConfirmations } from '../catalog/fields.js';
import { requireChain } from '../catalog/queries.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import type { Resolver } from '../../outbound/guard.js';
import { DEFAULT_POLL_MS, findWatch, MAX_POLL_MS, MIN_POLL_MS, tokensOf, watchQuery, type WatchRow } from './config.js';
import { apiKeyOwner, checkRpcUrl, maskRpcUrl, rpcOwner } from './node-url.js';
import { checkKind, checkNative, checkTokens, NETWORK_ID } from './checks.js';
import { watchView, type LiveStatus } from './view.js';
import type { WatchRequest } from './watch-request.js';
import { findFamily } from '../../chain-families/index.js';

export { watchView, type LiveStatus, type WatchView } from './view.js';
export type { WatchRequest };

export interface WatchAdminOptions {
  store: Store;
  box: SecretBox;
  sandbox: boolean;
  resolve: Resolver;
  now: () => number;
  /** The watcher of this instance: its live status, and a nudge after a change. */
  live: (symbol: string) => LiveStatus | undefined;
  /** Rounds failed in a row after which a watch shows `failing` (the watcher's own threshold). */
  failingAfter?: number | undefined;
  changed: () => void;
  /** A chain's confirmations changed (they are the catalog's): drops what the caches hold of the catalog, here and on other instances. */
  catalogChanged: () => Promise<void>;
}

/**
 * The operators' side of the chain watcher: which chains are watched, through which node (and
 * adapter kind), which token contracts, how often. The node URL and API key are sealed at rest,
 * the URL shown masked and the key never; every change is
 * audited (with the masked URL). The required confirmations are the chain's own (the catalog's
 * confirmationsRequired, which checkouts copy), so setting them here changes the chain.
 */
export function watchAdmin(opts: WatchAdminOptions) {
  const { store, box } = opts;
  const db = store.db;
  const at = () => new Date(opts.now()).toISOString();
  const view = (w: WatchRow) => watchView(w, at(), opts.live(w.symbol), opts.failingAfter);

  async function require(symbol: string): Promise<WatchRow> {
    const w = await findWatch(db, symbol);
    if (w === undefined)
      throw new HostpayError(
        'NOT_FOUND',
        `chain ${symbol.toUpperCase()} is not watched: set it up with PUT /admin/v1/chains/${symbol.toUpperCase()}/watch (hostpay chain watch ${symbol.toUpperCase()} --url URL)`,
      );
    return w;
  }

  return {
    async setChainWatch(symbol: string, req: WatchRequest, audit: AuditContext) {
      const chain = await requireChain(db, symbol.toUpperCase());
      const before = await findWatch(db, chain.symbol);
      const kind = checkKind(chain, req.kind ?? before?.adapter_kind);
      const networkId = req.networkId === undefined ? (before?.network_id ?? null) : req.networkId;
      if (networkId !== null && !NETWORK_ID.test(networkId))
        invalid(
          'networkId must be the EVM chain id in decimal (1 for Ethereum) or the genesis block hash in hex (Bitcoin, TRON), at most 128 characters',
        );
      if (req.apiKey !== undefined && req.apiKey !== null && (req.apiKey.length < 1 || req.apiKey.length > 1024))
        invalid('apiKey must be 1 to 1024 characters (null removes it)');
      const apiKeySealed =
        req.apiKey === undefined
          ? (before?.api_key_sealed ?? null)
          : req.apiKey === null
            ? null
            : box.seal(req.apiKey, apiKeyOwner(chain.id));
      const allowPrivate = req.allowPrivateRpc ?? before?.allow_private_rpc === 1;
      // Sealed and masked: a change that keeps the URL keeps its sealed text too, so the watcher
      // (which knows its connection by that text) does not reconnect for another setting.
      let url: { sealed: string; shown: string };
      if (req.rpcUrl !== undefined) {
        if (req.rpcUrl.length > 2048)
          throw new HostpayError('INVALID_URL', 'rpcUrl must be at most 2048 characters', { field: 'rpcUrl' });
        const href = (await checkRpcUrl(req.rpcUrl, { sandbox: opts.sandbox, allowPrivate, resolve: opts.resolve }))
          .href;
        url = { sealed: box.seal(href, rpcOwner(chain.id)), shown: maskRpcUrl(href) };
      } else if (before !== undefined) {
        // The stored URL passed when it was set and is checked again on every connection. Here it
        // is checked when the watch will run under a rule it may not have passed: the rule made
        // stricter, or a stopped watch started again (the rule may have changed while it was off).
        // Any other change (turning the watch off above all) never fails on the node's DNS.
        const stricter = before.allow_private_rpc === 1 && !allowPrivate;
        const runs = req.enabled ?? before.enabled === 1;
        const restarted = runs && before.enabled === 0;
        if (runs && (stricter || restarted))
          await checkRpcUrl(box.open(before.rpc_url_sealed, rpcOwner(chain.id)).toString('utf8'), {
            sandbox: opts.sandbox,
            allowPrivate,
            resolve: opts.resolve,
          });
        url = { sealed: before.rpc_url_sealed, shown: before.rpc_url_shown };
      } else {
        invalid(
          `rpcUrl is required to start watching ${chain.symbol}: the node's URL (${kind === 'evm-rpc' ? 'JSON-RPC, https://… or wss://…' : 'https://…'})`,
        );
      }
      const pollIntervalMs = req.pollIntervalMs ?? before?.poll_interval_ms ?? DEFAULT_POLL_MS;
      if (!Number.isInteger(pollIntervalMs) || pollIntervalMs < MIN_POLL_MS || pollIntervalMs > MAX_POLL_MS)
        invalid(`pollIntervalMs must be a whole number from ${MIN_POLL_MS} to ${MAX_POLL_MS}`);
      const confirmations = checkConfirmations(req.confirmations ?? chain.confirmations_required);
      const nativeDecimals =
        req.nativeDecimals ?? before?.native_decimals ?? findFamily(chain.family)?.nativeDecimals ?? 18;
      if (!Number.isInteger(nativeDecimals) || nativeDecimals < 0 || nativeDecimals > 36)
        invalid('nativeDecimals must be a whole number from 0 to 36');
      if (req.startBlock !== undefined && (!Number.isSafeInteger(req.startBlock) || req.startBlock < 0))
        invalid('startBlock must be a block number from 0');
      const now = at();
      await store.writeTransaction(async (trx) => {
        const tokens = await checkTokens(
          trx,
          chain.id,
          chain.family,
          req.tokens ?? (before === undefined ? undefined : tokensOf(before)),
        );
        const nativeAsset = await checkNative(
          trx,
          chain.id,
          req.nativeAsset === undefined && before !== undefined ? before.native_asset : req.nativeAsset,
          nativeDecimals,
        );
        const fields = {
          adapter_kind: kind,
          api_key_sealed: apiKeySealed,
          network_id: networkId,
          rpc_url_sealed: url.sealed,
          rpc_url_shown: url.shown,
          tokens: JSON.stringify(tokens),
          native_asset: nativeAsset,
          native_decimals: nativeDecimals,
          poll_interval_ms: pollIntervalMs,
          allow_private_rpc: allowPrivate ? 1 : 0,
          enabled: req.enabled === undefined ? (before?.enabled ?? 1) : req.enabled ? 1 : 0,
          updated_at: now,
        };
        // A new start block starts the scan over from there: the cursor and kept hashes go.
        const restart =
          req.startBlock !== undefined
            ? {
                start_block: req.startBlock,
                cursor_block: null,
                head_block: null,
                ...(req.networkId === undefined ? { network_id: null } : {}),
              }
            : {};
        if (before === undefined) {
          await trx
            .insertInto('chain_watches')
            .values({
              chain_id: chain.id,
              ...fields,
              start_block: req.startBlock ?? null,
              cursor_block: null,
              head_block: null,
              last_round_at: null,
              last_error: null,
              last_error_at: null,
              failed_rounds: 0,
              lease_owner: null,
              lease_expires_at: null,
              created_at: now,
            })
            .execute();
        } else {
          await trx
            .updateTable('chain_watches')
            .set({ ...fields, ...restart })
            .where('chain_id', '=', chain.id)
            .execute();
        }
        if (req.startBlock !== undefined)
          await trx.deleteFrom('chain_watch_blocks').where('chain_id', '=', chain.id).execute();
        if (confirmations !== chain.confirmations_required)
          await trx
            .updateTable('chains')
            .set({ confirmations_required: confirmations })
            .where('id', '=', chain.id)
            .execute();
        const after = await findWatch(trx, chain.symbol);
        await recordAudit(trx, audit, {
          action: 'chain.watch.set',
          objectType: 'chain',
          objectId: chain.id,
          before: before === undefined ? null : watchView(before, now),
          after: watchView(after!, now),
        });
      });
      if (confirmations !== chain.confirmations_required) await opts.catalogChanged();
      opts.changed();
      return view(await require(chain.symbol));
    },

    getChainWatch: async (symbol: string) => view(await require(symbol)),

    async listChainWatches() {
      return (await watchQuery(db).orderBy('c.symbol').execute()).map(view);
    },

    async deleteChainWatch(symbol: string, audit: AuditContext) {
      const before = await require(symbol);
      await store.writeTransaction(async (trx) => {
        await trx.deleteFrom('chain_watch_blocks').where('chain_id', '=', before.chain_id).execute();
        await trx.deleteFrom('chain_watches').where('chain_id', '=', before.chain_id).execute();
        await recordAudit(trx, audit, {
          action: 'chain.watch.delete',
          objectType: 'chain',
          objectId: before.chain_id,
          before: watchView(before, at()),
          after: null,
        });
      });
      opts.changed();
      return {
        ...watchView(before, at()),
        enabled: false,
        status: { ...watchView(before, at()).status, state: 'stopped' as const, leaseHolder: null },
      };
    },
  };
}

export type WatchAdmin = ReturnType<typeof watchAdmin>;
