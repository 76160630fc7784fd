/** The audit name chain watchers report transfers under (features/chain-watch WATCHER_AUDIT). */
export const WATCHER_OPERATOR = 'chain-watch';

// The answer's shape is the wire contract's (protocol), shared with the CLI and the console.
export { RECONCILIATION_REASONS } from '@hostpay/protocol';
export type {
  Reconciliation,
  ReconciliationDay,
  ReconciliationDifference as Difference,
  ReconciliationFigures as Figures,
  ReconciliationReason,
} from '@hostpay/protocol';
