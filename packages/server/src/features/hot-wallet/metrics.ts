import { Counter, Gauge, type Metric } from 'prom-client';

/** The `sender` label of the payouts' metrics: the contract's names of the two senders. */
export const HOT_WALLET_SENDER = 'evm-hot-wallet';
export const MANUAL_SENDER = 'manual';

/** The hot wallet sender's metrics on this instance, per chain symbol. Created unregistered; /metrics adds them. */
export class HotWalletMetrics {
  readonly insufficient = new Gauge({
    name: 'hostpay_hot_wallet_insufficient_funds',
    help: 'Approved payouts the hot wallet could not send at its last try because its balance (the asset, or the native coin for gas) is too low, by chain: alert when above 0',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly held = new Counter({
    name: 'hostpay_hot_wallet_held_total',
    help: 'Times a payout was left approved because the hot wallet balance was too low, by chain',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly sent = new Counter({
    name: 'hostpay_hot_wallet_sent_total',
    help: 'Payout transactions the hot wallet signed and broadcast for the first time, by chain',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly replaced = new Counter({
    name: 'hostpay_hot_wallet_fee_bumps_total',
    help: 'Transactions replaced with a higher fee (same nonce) because they were not mined in time, by chain',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly rebroadcast = new Counter({
    name: 'hostpay_hot_wallet_rebroadcasts_total',
    help: 'Stored signed transactions broadcast again (after a restart, a node that forgot them, a reorganisation), by chain',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly forgotten = new Gauge({
    name: 'hostpay_hot_wallet_forgotten_transactions',
    help: 'Transactions in flight the node had no trace of (not pooled, not mined, nonce unused) and refused when sent again, at the last round, by chain: alert when above 0 (rebroadcast or cancel by replacement)',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly reorgs = new Counter({
    name: 'hostpay_hot_wallet_reorgs_total',
    help: "Counted payout transactions a reorganisation took out of the chain (the payout went back to sent), by chain and by the payout's sender (evm-hot-wallet, or manual: a transaction an operator reported), whether the hot wallet's tracker or the chain watcher saw it first",
    labelNames: ['chain', 'sender'] as const,
    registers: [],
  });
  readonly payoutErrors = new Counter({
    name: 'hostpay_hot_wallet_payout_errors_total',
    help: "Times one payout's transaction could not be followed or its move recorded (by the sender's round or the chain watcher's count), by chain: that payout's error, tried again next round while the others go on; alert when it keeps rising",
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly errors = new Counter({
    name: 'hostpay_hot_wallet_errors_total',
    help: 'Failed rounds of the hot wallet sender (RPC errors; retried with back-off), by chain',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly leader = new Gauge({
    name: 'hostpay_hot_wallet_sender_leader',
    help: "1 when this instance holds the chain's hot wallet lease (it is the chain's sender), else 0",
    labelNames: ['chain'] as const,
    registers: [],
  });

  collectors(): Metric[] {
    return [
      this.insufficient,
      this.held,
      this.sent,
      this.replaced,
      this.rebroadcast,
      this.forgotten,
      this.reorgs,
      this.payoutErrors,
      this.errors,
      this.leader,
    ] as unknown as Metric[];
  }
}
