/** A payout transaction the sender saw mined: the watcher counts its confirmations. */
export interface FollowedTransaction {
  id: string;
  blockHash: string;
  blockNumber: number;
  /** Confirmations counted so far. */
  confirmations: number;
}

/**
 * What the chain watcher asks of and tells the feature that sends payouts (hot-wallet implements
 * it; the watcher never reads its tables): the transactions mined on the chain and short of the
 * depth, and the confirmations the watcher counted for one. The sender keeps the rest of a
 * transaction's life (broadcast, fee bumps, a block lost to a reorganisation, a revert).
 */
export interface PayoutChainPort {
  followed(chainId: string): Promise<FollowedTransaction[]>;
  /**
   * `confirmations` counted up to the last block the watcher scanned, the transaction's block
   * checked to be still `blockHash`; at `required` the payout completes. A transaction whose
   * block changed meanwhile (the sender moved it) is left alone.
   */
  confirm(id: string, blockHash: string, confirmations: number, required: number): Promise<void>;
}
