/**
 * What the hot wallet needs of the payouts feature, declared here as the structural type it
 * consumes (the payouts feature's `sender-port.ts` has the same shape; the hot wallet never
 * imports the payouts folder, so either can change without a loop between them).
 */
export interface PayoutSenderPort {
  /** Approved payouts waiting to be sent on the chain, oldest first. */
  approved(chainId: string, limit: number): Promise<PayoutJob[]>;
  markSent(payoutId: string, p: { txHash: string; networkFee?: string }, by: 'system' | 'operator'): Promise<void>;
  markConfirmations(payoutId: string, confirmations: number): Promise<void>;
  markCompleted(payoutId: string, p: { networkFee?: string }): Promise<void>;
  markFailed(payoutId: string, reason: string, by: 'system' | 'operator'): Promise<void>;
  /** A counted transaction left the chain (a reorganisation): back to `sent`, confirmations restart. */
  markReorged(payoutId: string): Promise<void>;
  /** The payout stays `approved`, with this reason shown (a hot wallet too poor to send it). */
  holdWithReason(payoutId: string, reason: string): Promise<void>;
  /** Sent payouts on the chain, oldest first, with their transaction: what the verifier of reported transactions checks. */
  sent(chainId: string, limit: number): Promise<SentPayoutJob[]>;
}

export interface PayoutJob {
  id: string;
  merchantId: string;
  chainId: string;
  /** Chain symbol (ETH). */
  chain: string;
  network: string;
  asset: string;
  assetId: string;
  /** The token contract, or null for the chain's own coin. */
  contract: string | null;
  /** Decimals of the amount on chain (the contract's, or the native coin's). */
  decimals: number;
  /** Exact decimal text of what the destination receives. */
  amount: string;
  destination: string;
}

export interface SentPayoutJob extends PayoutJob {
  txHash: string;
  confirmations: number;
  /** When the payout last changed (sent, a reorganisation, a confirmation count): ISO time. */
  updatedAt: string;
}
