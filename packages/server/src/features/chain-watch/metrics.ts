import { Counter, Gauge, type Metric } from 'prom-client';

/** The watcher's metrics on this instance, per chain symbol. Created unregistered; /metrics adds them. */
export class ChainWatchMetrics {
  readonly rpcErrors = new Counter({
    name: 'hostpay_chain_node_errors_total',
    help: 'Failed rounds of the chain watcher by chain (node errors and timeouts; the round is retried with back-off)',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly transfers = new Counter({
    name: 'hostpay_chain_transfers_reported_total',
    help: 'Transfers the chain watcher reported to the transfers code for the first time, by chain and asset',
    labelNames: ['chain', 'asset'] as const,
    registers: [],
  });
  readonly retracted = new Counter({
    name: 'hostpay_chain_transfers_retracted_total',
    help: 'Transfers retracted because the block they were in was replaced (reorganisation), by chain',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly reorgs = new Counter({
    name: 'hostpay_chain_reorgs_total',
    help: 'Replaced blocks the chain watcher noticed (reorganisations), by chain',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly head = new Gauge({
    name: 'hostpay_chain_head_block',
    help: 'Latest block number the node reported, by chain',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly cursor = new Gauge({
    name: 'hostpay_chain_scanned_block',
    help: 'Last block the chain watcher has fully scanned, by chain',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly behind = new Gauge({
    name: 'hostpay_chain_blocks_behind',
    help: 'Blocks between the head and the last scanned block, by chain',
    labelNames: ['chain'] as const,
    registers: [],
  });
  readonly leader = new Gauge({
    name: 'hostpay_chain_watch_leader',
    help: "1 when this instance holds the chain's watch lease, else 0",
    labelNames: ['chain'] as const,
    registers: [],
  });

  readonly failedRounds = new Gauge({
    name: 'hostpay_chain_watch_failed_rounds',
    help: 'Rounds of the chain watch failed in a row on this instance (node errors, blocks that do not link up); 0 after a good round',
    labelNames: ['chain'] as const,
    registers: [],
  });

  collectors(): Metric[] {
    return [
      this.rpcErrors,
      this.transfers,
      this.retracted,
      this.reorgs,
      this.head,
      this.cursor,
      this.behind,
      this.leader,
      this.failedRounds,
    ] as unknown as Metric[];
  }
}
