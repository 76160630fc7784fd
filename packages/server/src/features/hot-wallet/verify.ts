import type { Hash, Hex } from 'viem';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Resolver } from '../../outbound/guard.js';
import type { Store } from '../../store/store.js';
import { watchQuery } from '../chain-watch/config.js';
import { openRpc, type Rpc } from '../chain-watch/adapters/evm/rpc.js';
import { rpcOwner, scrubMessage } from '../chain-watch/node-url.js';
import { receiptOf } from './chain-ops.js';

export interface ExpectedTransfer {
  /** The payout's destination. */
  to: string;
  /** The token contract, or null for the chain's own coin. */
  contract: string | null;
  /** The amount in integer base units (exact). */
  amountBaseUnits: bigint;
}

export type Verification =
  /** `confirmations` from the node's head: shown to whoever asks; the chain watcher counts the payout's. */
  | { ok: true; confirmations: number; blockNumber: number; blockHash: string }
  /** `retry`: not decided yet (not mined, no node answer); otherwise the transaction does not pay the payout. */
  | { ok: false; reason: string; retry: boolean };

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const lower = (s: string | null | undefined) => (s ?? '').toLowerCase();
const topicAddress = (topic: string | undefined) => `0x${lower(topic).slice(-40)}`;

/**
 * Whether a transaction on the node pays what a payout promised: native — the transaction's own
 * `to` and `value`; a token — a `Transfer` log of the contract to the destination with the amount
 * (a batch payout contract's transaction may carry several logs; one must match exactly). A
 * reverted transaction pays nothing.
 */
export async function verifyOn(rpc: Rpc, txHash: Hash, expected: ExpectedTransfer): Promise<Verification> {
  const receipt = await receiptOf(rpc, txHash);
  if (receipt === null) return { ok: false, reason: `transaction ${txHash} is not mined (yet)`, retry: true };
  if (receipt.status === 'reverted') return { ok: false, reason: `transaction ${txHash} reverted`, retry: false };
  const head = Number(await rpc.client.getBlockNumber({ cacheTime: 0 }));
  const blockNumber = Number(receipt.blockNumber);
  const found = {
    ok: true as const,
    confirmations: Math.max(0, head - blockNumber + 1),
    blockNumber,
    blockHash: receipt.blockHash as string,
  };
  if (expected.contract === null) {
    const tx = await rpc.client.getTransaction({ hash: txHash });
    if (lower(tx.to) !== lower(expected.to))
      return {
        ok: false,
        reason: `transaction ${txHash} pays ${lower(tx.to)}, not ${lower(expected.to)}`,
        retry: false,
      };
    if (tx.value !== expected.amountBaseUnits)
      return {
        ok: false,
        reason: `transaction ${txHash} moves ${tx.value} base units, not ${expected.amountBaseUnits}`,
        retry: false,
      };
    return found;
  }
  const match = receipt.logs.some(
    (l) =>
      lower(l.address) === lower(expected.contract) &&
      lower(l.topics[0]) === TRANSFER_TOPIC &&
      topicAddress(l.topics[2]) === lower(expected.to) &&
      l.data !== '0x' &&
      BigInt(l.data as Hex) === expected.amountBaseUnits,
  );
  if (!match)
    return {
      ok: false,
      reason: `transaction ${txHash} has no Transfer of ${expected.amountBaseUnits} base units of ${lower(expected.contract)} to ${lower(expected.to)}`,
      retry: false,
    };
  return found;
}

/** Checks of reported transactions on one chain's node, over one connection (a verifier round). */
export interface TransferChecker {
  check(txHash: string, expected: ExpectedTransfer): Promise<Verification>;
  close(): void;
}

/**
 * The check of transactions operators report for manual payouts, on the node of the chain's
 * watch (through the same address guard). A chain without a watch answers `retry` with the
 * reason: the operator confirms it by hand there. `open` keeps one connection for a round's
 * checks; `verifyTransfer` is one check on a connection of its own.
 */
export function createVerifier(opts: {
  store: Store;
  box: SecretBox;
  sandbox: boolean;
  resolve: Resolver;
  rpcTimeoutMs?: number;
}) {
  const undecided = (reason: string): TransferChecker => ({
    check: async () => ({ ok: false, reason, retry: true }),
    close: () => undefined,
  });

  async function open(chainId: string): Promise<TransferChecker> {
    const w = await watchQuery(opts.store.db)
      .where('w.chain_id', '=', chainId)
      .where('w.adapter_kind', '=', 'evm-rpc')
      .executeTakeFirst();
    if (w === undefined) return undecided('the chain has no watch (no node to ask)');
    const url = opts.box.open(w.rpc_url_sealed, rpcOwner(w.chain_id)).toString('utf8');
    const unanswered = (err: unknown) => `the node did not answer: ${scrubMessage((err as Error).message, url)}`;
    let rpc: Rpc;
    try {
      rpc = await openRpc(
        url,
        { sandbox: opts.sandbox, allowPrivate: w.allow_private_rpc === 1, resolve: opts.resolve },
        opts.rpcTimeoutMs ?? 15_000,
      );
    } catch (err) {
      return undecided(unanswered(err));
    }
    return {
      async check(txHash, expected) {
        if (!/^0x[0-9a-fA-F]{64}$/.test(txHash))
          return { ok: false, reason: 'the transaction hash must be 0x and 64 hex digits', retry: false };
        try {
          return await verifyOn(rpc, txHash as Hash, expected);
        } catch (err) {
          return { ok: false, reason: unanswered(err), retry: true };
        }
      },
      close: () => rpc.close(),
    };
  }

  async function verifyTransfer(chainId: string, txHash: string, expected: ExpectedTransfer): Promise<Verification> {
    const checker = await open(chainId);
    try {
      return await checker.check(txHash, expected);
    } finally {
      checker.close();
    }
  }

  return { open, verifyTransfer };
}

export type Verifier = ReturnType<typeof createVerifier>;
export type VerifyTransfer = Verifier['verifyTransfer'];
