declare module '../../feature-kit/contributions.js' {
  interface ContributionPoints {
    /** A payout sender's transactions the chain watcher counts the confirmations of (hot-wallet's). */
    payoutConfirmations: PayoutChainPort;
  }
}

/** A payout transaction the sender saw mined: the watcher counts its confirmations. */
export interface FollowedTransaction {
  id: string;
  /** Which of the sender's records `id` names (the watcher hands it back unread). */
  kind: string;
  blockHash: string;
  blockNumber: number;
  /** Confirmations counted so far. */
  confirmations: number;
}

/**
 * What the chain watcher asks of and tells the feature that sends payouts (hot-wallet implements
 * it for both senders on EVM chains: its own transactions and the ones operators report for
 * manual payouts; the watcher never reads their tables): the transactions mined on the chain and
 * short of the depth, the confirmations the watcher counted for one, and a block the chain no
 * longer has. The sender keeps the rest of a transaction's life (broadcast, fee bumps, a revert,
 * the check that a reported transaction pays the payout).
 */
export interface PayoutChainPort {
  followed(chainId: string): Promise<FollowedTransaction[]>;
  /**
   * `confirmations` counted up to the last block the watcher scanned, the transaction's block
   * checked to be still `blockHash`; at `required` the payout completes. A transaction whose
   * block changed meanwhile (the sender moved it) is left alone.
   */
  confirm(t: FollowedTransaction, confirmations: number, required: number): Promise<void>;
  /**
   * The node has another block at the transaction's height (a reorganisation): the payout goes
   * back to `sent` and its transaction is looked for again. Left alone when the sender moved it.
   */
  reorged(t: FollowedTransaction): Promise<void>;
  /**
   * `confirm` or `reorged` of `t` failed (its payout's move could not be recorded): that payout's
   * error, shown and counted by the sender; the watcher goes on with the others and asks again
   * next round.
   */
  failed?(t: FollowedTransaction, chain: string, message: string): void;
}
