import { Counter, type Metric } from 'prom-client';
import type { MoveResult } from './moves.js';

/**
 * The business counters of payouts on this instance (docs/deploy.md, "Metrics"): payouts and
 * refunds completed and their amounts, per asset, chain and kind (`payout` or `refund`), all
 * bounded. Counted once, after the transaction of the completion committed, whoever completed it
 * (the system's senders, an operator, the sandbox). Created unregistered; the merchant routes add
 * them to /metrics.
 */
export class PayoutMetrics {
  readonly completed = new Counter({
    name: 'hostpay_payouts_completed_total',
    help: 'Payouts completed, by asset, chain and kind (payout, or refund)',
    labelNames: ['asset', 'chain', 'kind'] as const,
    registers: [],
  });
  readonly completedAmount = new Counter({
    name: 'hostpay_payouts_completed_amount_total',
    help: 'Amount sent by completed payouts (without the network fee), in units of the asset, by asset, chain and kind; a float for dashboards: the ledger holds the exact figure',
    labelNames: ['asset', 'chain', 'kind'] as const,
    registers: [],
  });

  collectors(): Metric[] {
    return [this.completed, this.completedAmount] as unknown as Metric[];
  }

  /** After commit: counts the payout when this move completed it (a completed payout never moves again). */
  movedBy(result: MoveResult): void {
    const { row } = result.payout;
    if (!result.moved || row.status !== 'completed') return;
    const labels = {
      asset: row.asset_symbol,
      chain: row.chain_symbol,
      kind: row.refund_of === null ? 'payout' : 'refund',
    };
    this.completed.inc(labels);
    this.completedAmount.inc(labels, Number(row.amount));
  }
}
