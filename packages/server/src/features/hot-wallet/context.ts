import type { SecretBox } from '../../crypto/secret-box.js';
import type { HotWalletTxTable } from './tables.js';
import type { Store } from '../../store/store.js';
import { holdLease, LeaseLost } from '../../cluster/leased-loops.js';
import type { Rpc } from '../chain-watch/adapters/evm/rpc.js';
import type { HotWalletMetrics } from './metrics.js';
import type { PayoutSenderPort } from './port.js';
import type { HotWalletRow } from './service.js';

/** What one round of a chain's sender works with (the lease is held when it runs). */
export interface SendContext {
  store: Store;
  box: SecretBox;
  port: PayoutSenderPort | undefined;
  metrics: HotWalletMetrics;
  log: { warn(msg: string): void };
  now: () => number;
  owner: string;
  leaseMs: number;
  /** A transaction not mined this long after its broadcast is replaced with a higher fee. */
  replaceAfterMs: number;
  /** Most replacements per nonce; after that the last one is only broadcast again. */
  maxFeeBumps: number;
  /** Approved payouts taken per round. */
  batch: number;
  /**
   * Tests: runs after a new payout's transaction is signed and before the transaction that claims
   * the payout and stores it (a cancel committed there is the race the claim closes).
   */
  beforeStore?: ((tx: { payoutId: string; nonce: number }) => void | Promise<void>) | undefined;
  /** Tests: runs after a signed transaction is committed and before it is broadcast (a crash there). */
  afterSign?: ((tx: { payoutId: string; txHash: string; nonce: number }) => void | Promise<void>) | undefined;
  /** This round's payouts whose transaction could not be followed or recorded (`payoutFailed`). */
  failures: PayoutFailure[];
  /** Payouts held for funds at their last try, with the reason given (not repeated while unchanged). */
  held: Map<string, string>;
  hw: HotWalletRow;
  rpc: Rpc;
  nodeChainId: number;
  head: number;
  /** The chain's confirmationsRequired. */
  required: number;
  nativeDecimals: number;
  nativeAsset: string | null;
}

export type TxRow = HotWalletTxTable;

/** Renews the chain's sender lease inside the transaction that relies on it; LeaseLost when another instance sends now. */
export function holdSenderLease(
  trx: Store['db'],
  c: Pick<SendContext, 'owner' | 'now' | 'leaseMs'>,
  chainId: string,
): Promise<void> {
  return holdLease(trx, SENDER_LEASES, chainId, c);
}

export const SENDER_LEASES = { table: 'hot_wallets', key: 'chain_id' } as const;

export const iso = (c: Pick<SendContext, 'now'>) => new Date(c.now()).toISOString();

/** A payout whose transaction could not be followed or recorded this round. */
export interface PayoutFailure {
  payoutId: string;
  /** null: the payout has no transaction yet (its hold could not be recorded). */
  nonce: number | null;
  message: string;
}

/** The node unreachable or slow (viem's transport errors), or the lease lost: every nonce would meet it. */
const TRANSPORT = new Set(['HttpRequestError', 'TimeoutError', 'SocketClosedError', 'WebSocketRequestError']);
export function roundsError(err: unknown): boolean {
  if (err instanceof LeaseLost) return true;
  const walk = (err as { walk?: (fn: (e: unknown) => boolean) => unknown }).walk;
  return typeof walk === 'function' && Boolean(walk.call(err, (e) => TRANSPORT.has((e as Error).name)));
}

/**
 * One payout's transaction could not be followed or its move recorded: that payout's error —
 * counted, logged, named in the hot wallet's last error — while the round goes on with the others.
 * It is tried again next round (its nonce is still open).
 */
export function payoutFailed(c: SendContext, payoutId: string, nonce: number | null, err: unknown): void {
  const failure = { payoutId, nonce, message: messageOf(err) };
  c.failures.push(failure);
  c.metrics.payoutErrors.inc({ chain: c.hw.symbol });
  c.log.warn(`hot wallet ${c.hw.symbol}: ${failureName(failure)}: ${failure.message}; tried again next round`);
}

export const failureName = (f: PayoutFailure) => `payout ${f.payoutId}${f.nonce === null ? '' : ` (nonce ${f.nonce})`}`;

const messageOf = (err: unknown) =>
  err instanceof Error ? ((err as { shortMessage?: string }).shortMessage ?? err.message) : String(err);
