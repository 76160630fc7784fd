import { HostpayError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { invalid } from '../../admin/deps.js';
import { checkConfirmations } from '../catalog/fields.js';
import { requireChain } from '../catalog/queries.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import type { Resolver } from '../../outbound/guard.js';
import {
  blockOf,
  DEFAULT_POLL_MS,
  findWatch,
  MAX_POLL_MS,
  MIN_POLL_MS,
  tokensOf,
  watchQuery,
  type WatchedToken,
  type WatchRow,
} from './config.js';
import { ADAPTERS, DEFAULT_KIND, isAdapterKind, KIND_FAMILY, type AdapterKind } from './adapters/index.js';
import { apiKeyOwner, checkRpcUrl, maskRpcUrl, rpcOwner } from './node-url.js';

export interface WatchRequest {
  /** The adapter that talks to the node; default by the chain's family (evm-rpc, esplora, tron-http). */
  kind?: string | undefined;
  /** The node's URL. Required for a new watch; left out, the stored URL stays. */
  rpcUrl?: string | undefined;
  /** An API key or credentials for the node (sealed); null removes it; left out, it stays. */
  apiKey?: string | null | undefined;
  /** The network the node must serve (EVM chain id in decimal, or genesis hash); null: learnt from the node; left out, it stays. */
  networkId?: string | null | undefined;
  tokens?: { asset: string; contract?: string | undefined; decimals?: number | undefined }[] | undefined;
  nativeAsset?: string | null | undefined;
  nativeDecimals?: number | undefined;
  confirmations?: number | undefined;
  pollIntervalMs?: number | undefined;
  allowPrivateRpc?: boolean | undefined;
  startBlock?: number | undefined;
  enabled?: boolean | undefined;
}

/** What the instance running the watcher knows beyond the store (per chain). */
export interface LiveStatus {
  state: 'watching' | 'standby' | 'error' | 'stopped';
  /** This instance holds the chain's lease. */
  leader: boolean;
  lastError: string | null;
  consecutiveErrors: number;
}

/** How a token contract is spelled, per chain family: an 0x address (EVM), a base58 T… address (TRON). */
const CONTRACT: Record<string, RegExp> = {
  evm: /^0x[0-9a-fA-F]{40}$/,
  tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
};
const NATIVE_DECIMALS: Record<string, number> = { evm: 18, btc: 8, tron: 6 };
const NETWORK_ID = /^[0-9A-Za-z]{1,128}$/;

export function watchView(w: WatchRow, at: string, live?: LiveStatus) {
  const cursor = blockOf(w.cursor_block);
  const head = blockOf(w.head_block);
  const leaseLive =
    w.lease_owner !== null && w.lease_expires_at !== null && new Date(w.lease_expires_at).toISOString() > at;
  return {
    chain: w.symbol,
    kind: w.adapter_kind,
    rpcUrl: w.rpc_url_shown,
    apiKeySet: w.api_key_sealed !== null,
    networkId: w.network_id,
    tokens: tokensOf(w),
    nativeAsset: w.native_asset,
    nativeDecimals: w.native_decimals,
    confirmations: w.confirmations_required,
    pollIntervalMs: w.poll_interval_ms,
    allowPrivateRpc: w.allow_private_rpc === 1,
    enabled: w.enabled === 1,
    startBlock: blockOf(w.start_block),
    status: {
      state: stateOf(w, leaseLive, live),
      cursorBlock: cursor,
      headBlock: head,
      blocksBehind: cursor === null || head === null ? null : Math.max(0, head - cursor),
      lastRoundAt: w.last_round_at === null ? null : new Date(w.last_round_at).toISOString(),
      lastError: live?.leader ? live.lastError : w.last_error,
      lastErrorAt: w.last_error_at === null ? null : new Date(w.last_error_at).toISOString(),
      leaseHolder: leaseLive ? w.lease_owner : null,
    },
    createdAt: new Date(w.created_at).toISOString(),
    updatedAt: new Date(w.updated_at).toISOString(),
  };
}
export type WatchView = ReturnType<typeof watchView>;

/** This instance's own view when it watches the chain; else what the store says of whoever does. */
function stateOf(w: WatchRow, leaseLive: boolean, live: LiveStatus | undefined): LiveStatus['state'] {
  if (w.enabled === 0) return 'stopped';
  if (live?.leader) return live.state;
  if (!leaseLive) return 'standby';
  // A round that succeeds clears last_error (round.ts): it is set exactly when the last one failed.
  return w.last_error !== null ? 'error' : 'watching';
}

export interface WatchAdminOptions {
  store: Store;
  box: SecretBox;
  sandbox: boolean;
  resolve: Resolver;
  now: () => number;
  /** The watcher of this instance: its live status, and a nudge after a change. */
  live: (symbol: string) => LiveStatus | undefined;
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
  const view = (w: WatchRow) => watchView(w, at(), opts.live(w.symbol));

  async function require(symbol: string): Promise<WatchRow> {
    const w = await findWatch(db, symbol);
    if (w === undefined)
      throw new HostpayError(
        'NOT_FOUND',
        `chain ${symbol.toUpperCase()} is not watched: set it up with PUT /admin/v1/chains/${symbol.toUpperCase()}/watch (hostpay chain watch ${symbol.toUpperCase()} --url URL)`,
      );
    return w;
  }

  async function checkTokens(
    trx: typeof db,
    chainId: string,
    family: string,
    req: WatchRequest['tokens'],
  ): Promise<WatchedToken[]> {
    const networks = await trx
      .selectFrom('networks as n')
      .innerJoin('assets as a', 'a.id', 'n.asset_id')
      .select(['a.symbol', 'a.decimals', 'n.token_contract'])
      .where('n.chain_id', '=', chainId)
      .orderBy('a.symbol')
      .execute();
    const wanted =
      req ??
      networks
        .filter((n) => n.token_contract !== null)
        .map((n) => ({ asset: n.symbol, contract: undefined, decimals: undefined }));
    if (wanted.length > 50) invalid('tokens: at most 50 token contracts per chain');
    const seen = new Set<string>();
    return wanted.map((t, i) => {
      const symbol = t.asset.toUpperCase();
      const network = networks.find((n) => n.symbol === symbol);
      if (network === undefined)
        invalid(
          `tokens[${i}]: ${symbol} has no network on this chain: add it first (POST /admin/v1/networks, hostpay network add)`,
        );
      const contract = t.contract ?? network.token_contract;
      const pattern = CONTRACT[family];
      if (pattern === undefined) invalid(`tokens: a ${family} chain has no token contracts to watch`);
      if (contract === null || !pattern.test(contract))
        invalid(
          `tokens[${i}].contract must be the token's ${family === 'tron' ? 'base58 T… address' : '0x address (40 hex digits)'}${network.token_contract === null ? `; ${symbol} on this chain has none in the catalog` : ''}`,
        );
      const decimals = t.decimals ?? network.decimals;
      if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36)
        invalid(`tokens[${i}].decimals must be a whole number from 0 to 36 (the token contract's decimals())`);
      // An amount in base units must be representable in the asset: no rounding, ever.
      if (decimals > network.decimals)
        invalid(
          `tokens[${i}]: the ${symbol} contract has ${decimals} decimals but the asset ${symbol} has precision ${network.decimals}: raise the asset's precision first (PATCH /admin/v1/assets/${symbol})`,
        );
      // EVM addresses compare without case; base58 ones are case-sensitive and stay as they are.
      const spelled = family === 'evm' ? contract.toLowerCase() : contract;
      if (seen.has(spelled)) invalid(`tokens[${i}]: contract ${contract} is listed twice`);
      seen.add(spelled);
      return { asset: symbol, contract: spelled, decimals };
    });
  }

  async function checkNative(
    trx: typeof db,
    chainId: string,
    asset: string | null | undefined,
    decimals: number,
  ): Promise<string | null> {
    const natives = await trx
      .selectFrom('networks as n')
      .innerJoin('assets as a', 'a.id', 'n.asset_id')
      .select(['a.symbol', 'a.decimals'])
      .where('n.chain_id', '=', chainId)
      .where('n.token_contract', 'is', null)
      .execute();
    if (asset === null) return null;
    const pick = asset === undefined ? natives[0] : natives.find((n) => n.symbol === asset.toUpperCase());
    if (pick === undefined) {
      if (asset === undefined) return null;
      invalid(
        `nativeAsset: ${asset.toUpperCase()} is not a network without a token contract on this chain (the chain's own coin); use null to watch tokens only`,
      );
    }
    if (decimals > pick.decimals)
      invalid(
        `nativeDecimals ${decimals} is more than the precision of ${pick.symbol} (${pick.decimals}): raise the asset's precision first`,
      );
    return pick.symbol;
  }

  /** The adapter kind of a watch: one this build has, for the chain's family. */
  function checkKind(chain: { symbol: string; family: string }, asked: string | undefined): AdapterKind {
    const kind = asked ?? DEFAULT_KIND[chain.family];
    if (kind === undefined || !isAdapterKind(kind))
      invalid(`kind must be one of evm-rpc, esplora, bitcoin-core, tron-http (the adapter that talks to the node)`);
    if (KIND_FAMILY[kind] !== chain.family)
      invalid(`kind ${kind} talks to ${KIND_FAMILY[kind]} nodes, but ${chain.symbol} is a ${chain.family} chain`);
    if (ADAPTERS[kind] === undefined)
      invalid(
        `kind ${kind} is not in this build yet: feed ${chain.symbol} payments through POST /admin/v1/transfers meanwhile (docs/chains.md)`,
      );
    return kind;
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
      const nativeDecimals = req.nativeDecimals ?? before?.native_decimals ?? NATIVE_DECIMALS[chain.family] ?? 18;
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
