/**
 * A checkout's statuses, in the order of the contract's "States" table: the one list the schema,
 * the server's state table, the CLI and the console read. Its own module, without TypeBox, so the
 * console's bundle takes only this list.
 */
export const CHECKOUT_STATUS_VALUES = [
  'open',
  'underpaid',
  'processing',
  'settled',
  'expired',
  'canceled',
  'needs_review',
  'invalid',
] as const;

export type CheckoutStatusValue = (typeof CHECKOUT_STATUS_VALUES)[number];
