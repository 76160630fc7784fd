import { Counter, type Metric } from 'prom-client';
import type { Db } from '../../store/store.js';
import type { EvaluateResult } from './engine.js';

/**
 * The business counters of checkouts on this instance (docs/deploy.md, "Metrics"): created,
 * settled and the amount credited on settlement, per asset and chain (both bounded by the
 * catalog; no merchant label, whose count is not). Each is counted once, after the transaction
 * that made the change committed; instances count their own, so a dashboard sums over them.
 * Created unregistered; the merchant routes add them to /metrics.
 */
export class CheckoutMetrics {
  readonly created = new Counter({
    name: 'hostpay_checkouts_created_total',
    help: 'Checkouts created (one-by-one and batched creates alike)',
    registers: [],
  });
  readonly settled = new Counter({
    name: 'hostpay_checkouts_settled_total',
    help: 'Checkouts settled, by the asset and chain credited',
    labelNames: ['asset', 'chain'] as const,
    registers: [],
  });
  readonly settledAmount = new Counter({
    name: 'hostpay_checkouts_settled_amount_total',
    help: 'Amount credited to merchants on settlement (net of fees), in units of the asset, by asset and chain; a float for dashboards: the ledger holds the exact figure',
    labelNames: ['asset', 'chain'] as const,
    registers: [],
  });

  collectors(): Metric[] {
    return [this.created, this.settled, this.settledAmount] as unknown as Metric[];
  }

  /** After commit: counts the checkout when this change settled it, with what its settlement credited. */
  async settledBy(db: Db, evaluation: EvaluateResult | null | undefined): Promise<void> {
    if (evaluation === null || evaluation === undefined || !evaluation.moves.includes('settled')) return;
    const c = evaluation.checkout;
    const option = c.options.find((o) => o.id === c.row.settled_option_id);
    let labels = { asset: option?.asset_symbol ?? 'none', chain: option?.chain_symbol ?? 'none' };
    let amount: string | null = null;
    // A committed settlement is never failed by its counting: a posting not read is counted without its amount.
    if (c.row.credited_posting_id !== null) {
      const posting = await db
        .selectFrom('ledger_postings as p')
        .innerJoin('wallets as w', 'w.id', 'p.wallet_id')
        .innerJoin('assets as a', 'a.id', 'w.asset_id')
        .innerJoin('chains as ch', 'ch.id', 'w.chain_id')
        .select(['p.amount', 'a.symbol as asset', 'ch.symbol as chain'])
        .where('p.id', '=', c.row.credited_posting_id)
        .executeTakeFirst()
        .catch(() => undefined);
      if (posting !== undefined) {
        labels = { asset: posting.asset, chain: posting.chain };
        amount = posting.amount;
      }
    }
    this.settled.inc(labels);
    if (amount !== null) this.settledAmount.inc(labels, Number(amount));
  }
}
