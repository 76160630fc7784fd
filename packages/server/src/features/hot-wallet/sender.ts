import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Resolver } from '../../outbound/guard.js';
import type { Store } from '../../store/store.js';
import { findWatch, type WatchRow } from '../chain-watch/config.js';
import { backoff, LeasedLoops, LeaseLost, mayHoldLeases, releaseLeases } from '../../cluster/leased-loops.js';
import { openRpc, type Rpc } from '../chain-watch/adapters/evm/rpc.js';
import { rpcOwner, scrubMessage } from '../chain-watch/node-url.js';
import { failureName, holdSenderLease, SENDER_LEASES, type PayoutFailure, type SendContext } from './context.js';
import type { HotWalletMetrics } from './metrics.js';
import type { PayoutSenderPort } from './port.js';
import { sendApproved } from './send.js';
import { forgottenTransactions, hotWalletQuery, type HotWalletRow } from './service.js';
import { trackOpen } from './track.js';
import { signCancels } from './cancel.js';

export interface SenderOptions {
  store: Store;
  box: SecretBox;
  metrics: HotWalletMetrics;
  sandbox: boolean;
  resolve: Resolver;
  now: () => number;
  log: { warn(msg: string): void };
  /** The payouts feature's side: approved payouts in, their progress out. Without it nothing new is sent. */
  port?: PayoutSenderPort | undefined;
  /** How long a chain stays with this instance without a round, ms. Default 10,000 (at least 3 polls). */
  leaseMs?: number;
  /** How often the list of hot wallets is read again, ms. Default 5,000. */
  reloadMs?: number;
  rpcTimeoutMs?: number;
  /** A transaction not mined this long after its broadcast is replaced with a higher fee. Default 180,000. */
  replaceAfterMs?: number;
  /** Most fee bumps per nonce. Default 10. */
  maxFeeBumps?: number;
  /** Approved payouts taken per round. Default 20. */
  batch?: number;
  maxBackoffMs?: number;
  afterSign?: SendContext['afterSign'];
  beforeStore?: SendContext['beforeStore'];
}

export type SenderRound =
  | { leader: true; sent: number; unsent: number; failed: number }
  | { leader: false; reason: 'no_payouts' | 'no_hot_wallet' | 'not_watched' | 'standby' };

interface Loop {
  rpc: Rpc | undefined;
  rpcKey: string;
  errors: number;
  held: Map<string, string>;
}

/**
 * The hot wallet sender of one instance: a loop per chain with a hot wallet, which takes the
 * chain's lease (one sender per chain across instances, like the watcher's), follows the
 * transactions in flight and sends new approved payouts. The node is the chain's watch's (its
 * sealed RPC URL, through the same address guard); its poll interval paces the loop.
 */
export class HotWalletSender {
  readonly owner = `hws_${randomBytes(8).toString('hex')}`;
  readonly #o: SenderOptions;
  readonly #loops = new Map<string, Loop>();
  readonly #leased: LeasedLoops;

  constructor(opts: SenderOptions) {
    this.#o = opts;
    this.#leased = new LeasedLoops({
      what: 'hot wallet',
      reloadMs: opts.reloadMs ?? 5000,
      log: opts.log,
      keys: async () => (await hotWalletQuery(this.#o.store.db).execute()).map((h) => h.symbol),
      turn: (symbol) => this.#turn(symbol, this.#loop(symbol)),
      ended: (symbol) => this.#forget(symbol),
    });
  }

  /** Connects the payouts feature (the lead wires it once both features exist). */
  attach(port: PayoutSenderPort): void {
    this.#o.port = port;
  }

  /** The payouts feature's port, once attached (the watcher's confirmations go there too). */
  get port(): PayoutSenderPort | undefined {
    return this.#o.port;
  }

  start(): void {
    this.#leased.start();
  }

  wake(): void {
    this.#leased.wake();
  }

  async stop(): Promise<void> {
    await this.#leased.stop();
    for (const symbol of [...this.#loops.keys()]) this.#forget(symbol);
    if (mayHoldLeases(SENDER_LEASES, this.owner)) {
      await this.#o.store
        .writeTransaction((trx) => releaseLeases(trx, SENDER_LEASES, this.owner))
        .catch(() => undefined);
    }
  }

  #forget(symbol: string): void {
    this.#loops.get(symbol)?.rpc?.close();
    this.#loops.delete(symbol);
    this.#o.metrics.leader.set({ chain: symbol }, 0);
  }

  /** One round for one chain, now (the loops call it; tests drive it by hand). Errors are thrown, masked. */
  async round(symbol: string): Promise<SenderRound> {
    const sym = symbol.toUpperCase();
    // Without the payouts feature nothing is sent, and nothing in flight is followed: its news would be lost.
    if (this.#o.port === undefined) return { leader: false, reason: 'no_payouts' };
    const loop = this.#loop(sym);
    const hw = await hotWalletQuery(this.#o.store.db).where('c.symbol', '=', sym).executeTakeFirst();
    if (hw === undefined) return { leader: false, reason: 'no_hot_wallet' };
    const w = await findWatch(this.#o.store.db, sym);
    if (w === undefined) return { leader: false, reason: 'not_watched' };
    const leaseMs = Math.max(this.#o.leaseMs ?? 10_000, 3 * w.poll_interval_ms);
    const lease = { owner: this.owner, now: this.#o.now, leaseMs };
    try {
      await this.#o.store.writeTransaction((trx) => holdSenderLease(trx, lease, hw.chain_id));
    } catch (err) {
      if (!(err instanceof LeaseLost)) throw err;
      this.#o.metrics.leader.set({ chain: sym }, 0);
      return { leader: false, reason: 'standby' };
    }
    this.#o.metrics.leader.set({ chain: sym }, 1);
    const rpcUrl = this.#o.box.open(w.rpc_url_sealed, rpcOwner(w.chain_id)).toString('utf8');
    try {
      const rpc = await this.#rpc(loop, w, rpcUrl);
      const c = await this.#context(hw, w, rpc, loop, leaseMs);
      await signCancels(c);
      const { unsent } = await trackOpen(c);
      this.#o.metrics.forgotten.set({ chain: sym }, await forgottenTransactions(this.#o.store.db, hw.chain_id));
      const sent = unsent > 0 ? 0 : await sendApproved(c);
      loop.errors = 0;
      // A payout that could not be followed is shown (show-hot-wallet's last error) until a round has none.
      const failures = c.failures;
      const shown = failures.length === 0 ? null : failureText(failures);
      if (c.hw.last_error !== shown)
        await this.#setError(hw.chain_id, shown === null ? null : scrubMessage(shown, rpcUrl));
      return { leader: true, sent, unsent, failed: failures.length };
    } catch (err) {
      if (err instanceof LeaseLost) return { leader: false, reason: 'standby' };
      const message = scrubMessage(
        err instanceof Error ? ((err as { shortMessage?: string }).shortMessage ?? err.message) : String(err),
        rpcUrl,
      );
      loop.errors++;
      this.#o.metrics.errors.inc({ chain: sym });
      loop.rpc?.close();
      loop.rpc = undefined;
      await this.#setError(hw.chain_id, message).catch(() => undefined);
      throw new Error(message);
    }
  }

  async #context(hw: HotWalletRow, w: WatchRow, rpc: Rpc, loop: Loop, leaseMs: number): Promise<SendContext> {
    const [nodeChainId, head] = await Promise.all([rpc.chainId(), rpc.client.getBlockNumber({ cacheTime: 0 })]);
    // Signatures are bound to a chain id (EIP-155): never sign for another network than the one watched.
    if (w.network_id !== null && w.network_id !== String(nodeChainId))
      throw new Error(
        `the node answers for chain id ${nodeChainId}, but ${hw.symbol} is watched on chain id ${w.network_id}: nothing is signed until they agree`,
      );
    return {
      store: this.#o.store,
      box: this.#o.box,
      port: this.#o.port,
      metrics: this.#o.metrics,
      log: this.#o.log,
      now: this.#o.now,
      owner: this.owner,
      leaseMs,
      replaceAfterMs: this.#o.replaceAfterMs ?? 180_000,
      maxFeeBumps: this.#o.maxFeeBumps ?? 10,
      batch: this.#o.batch ?? 20,
      afterSign: this.#o.afterSign,
      beforeStore: this.#o.beforeStore,
      held: loop.held,
      failures: [],
      hw,
      rpc,
      nodeChainId,
      head: Number(head),
      required: w.confirmations_required,
      nativeDecimals: w.native_decimals,
      nativeAsset: w.native_asset,
    };
  }

  async #setError(chainId: string, message: string | null): Promise<void> {
    await this.#o.store.writeTransaction((trx) =>
      trx
        .updateTable('hot_wallets')
        .set({ last_error: message, last_error_at: message === null ? null : new Date(this.#o.now()).toISOString() })
        .where('chain_id', '=', chainId)
        .where('lease_owner', '=', this.owner)
        .execute(),
    );
  }

  #loop(symbol: string): Loop {
    let loop = this.#loops.get(symbol);
    if (loop === undefined) {
      loop = { rpc: undefined, rpcKey: '', errors: 0, held: new Map() };
      this.#loops.set(symbol, loop);
    }
    return loop;
  }

  async #rpc(loop: Loop, w: WatchRow, url: string): Promise<Rpc> {
    const key = `${w.rpc_url_sealed}|${w.allow_private_rpc}`;
    if (loop.rpc !== undefined && loop.rpcKey === key) return loop.rpc;
    loop.rpc?.close();
    loop.rpc = await openRpc(
      url,
      { sandbox: this.#o.sandbox, allowPrivate: w.allow_private_rpc === 1, resolve: this.#o.resolve },
      this.#o.rpcTimeoutMs ?? 15_000,
    );
    loop.rpcKey = key;
    return loop.rpc;
  }

  async #turn(symbol: string, loop: Loop): Promise<number> {
    const poll =
      (await findWatch(this.#o.store.db, symbol).catch(() => undefined))?.poll_interval_ms ?? this.#o.reloadMs ?? 5000;
    try {
      await this.round(symbol);
      return poll;
    } catch (err) {
      const wait = backoff(poll, loop.errors, this.#o.maxBackoffMs ?? 60_000);
      this.#o.log.warn(`hot wallet ${symbol}: ${(err as Error).message}; next try in ${Math.round(wait / 1000)} s`);
      return wait;
    }
  }
}

/** The round's payouts that could not be followed, as the hot wallet's last error names them. */
function failureText(failures: PayoutFailure[]): string {
  const [f] = failures;
  const more = failures.length > 1 ? ` (and ${failures.length - 1} more payouts)` : '';
  return `${failureName(f!)}: ${f!.message}${more}; the others go on, it is tried again next round`;
}
