import type { Hash, Hex } from 'viem';
import { loadViem, type Rpc } from '../chain-watch/adapters/evm/rpc.js';
import type { PayoutJob } from './port.js';

/** An amount as exact integer base units, or null when it has more decimals than the chain can carry (never rounded). */
export function toBaseUnits(amount: string, decimals: number): bigint | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (m === null) return null;
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return null;
  return BigInt(m[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/** ERC-20 `transfer(to, amount)` call data. */
export function transferData(to: string, amount: bigint): Hex {
  return `0xa9059cbb${to.slice(2).toLowerCase().padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`;
}

/** What a payout's transaction calls: the destination with a value (native), or the token contract. */
export function callOf(job: PayoutJob, units: bigint): { to: Hex; value: bigint; data: Hex | undefined } {
  return job.contract === null
    ? { to: job.destination.toLowerCase() as Hex, value: units, data: undefined }
    : { to: job.contract.toLowerCase() as Hex, value: 0n, data: transferData(job.destination, units) };
}

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** EIP-1559 fees the node suggests now (viem: the base fee with a margin, plus the node's tip). */
export async function currentFees(rpc: Rpc): Promise<Fees> {
  const f = await rpc.client.estimateFeesPerGas();
  return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
}

/**
 * The fees of a replacement: at least 12.5 % above the replaced one on both fields (geth's and
 * most nodes' rule for taking a transaction with the same nonce; +1 wei for rounding), and no
 * less than what the node suggests now.
 */
export function bumpedFees(old: Fees, now: Fees): Fees {
  const up = (v: bigint) => (v * 1125n) / 1000n + 1n;
  const tip =
    up(old.maxPriorityFeePerGas) > now.maxPriorityFeePerGas ? up(old.maxPriorityFeePerGas) : now.maxPriorityFeePerGas;
  let max = up(old.maxFeePerGas) > now.maxFeePerGas ? up(old.maxFeePerGas) : now.maxFeePerGas;
  if (max < tip) max = tip;
  return { maxFeePerGas: max, maxPriorityFeePerGas: tip };
}

/** A balance of the native coin or of a token, at the node's pending state. */
export async function balanceOf(rpc: Rpc, address: Hex, contract: string | null): Promise<bigint> {
  if (contract === null) return rpc.client.getBalance({ address, blockTag: 'pending' });
  const { data } = await rpc.client.call({
    to: contract as Hex,
    data: `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}`,
    blockTag: 'pending',
  });
  return data === undefined || data === '0x' ? 0n : BigInt(data);
}

/**
 * Errors a node answers to a transaction it already has, or already mined: the broadcast is done.
 * "Underpriced" too: a fee bump a node wants higher than +12.5 % stays recorded as broadcast, the
 * transaction it replaces is still followed, and the next bump offers more.
 */
const KNOWN =
  /already known|already imported|nonce too low|known transaction|already exists|replacement transaction underpriced/i;

/**
 * Sends signed bytes. A node that already has the transaction (or mined it) says so in an
 * error, which is success here: the tracker follows the hash either way.
 */
export async function broadcast(rpc: Rpc, raw: Hex): Promise<'sent' | 'known'> {
  try {
    await rpc.client.sendRawTransaction({ serializedTransaction: raw });
    return 'sent';
  } catch (err) {
    const text = `${(err as { details?: string }).details ?? ''} ${(err as Error).message}`;
    if (KNOWN.test(text)) return 'known';
    throw err;
  }
}

/** The receipt of a transaction, or null while the node has none (not mined, or mined in a block no longer the chain's). */
export async function receiptOf(rpc: Rpc, hash: Hash) {
  try {
    return await rpc.client.getTransactionReceipt({ hash });
  } catch (err) {
    if ((err as Error).name === 'TransactionReceiptNotFoundError') return null;
    throw err;
  }
}

/** Whether the node knows the transaction at all (in its pool or mined). */
export async function nodeKnows(rpc: Rpc, hash: Hash): Promise<boolean> {
  try {
    await rpc.client.getTransaction({ hash });
    return true;
  } catch (err) {
    if ((err as Error).name === 'TransactionNotFoundError') return false;
    throw err;
  }
}

/**
 * A cancel by replacement is a transaction of the payout's row set (same payout, same nonce) that
 * pays nothing: zero value to the wallet itself, no call data. Told apart by its bytes, so a fee
 * bump of a cancel (the tracker's, which copies the call) is one too.
 */
export async function isCancelTx(raw: string, wallet: string): Promise<boolean> {
  const tx = (await loadViem()).parseTransaction(raw as Hex);
  return tx.to?.toLowerCase() === wallet.toLowerCase() && (tx.value ?? 0n) === 0n && (tx.data ?? '0x') === '0x';
}
