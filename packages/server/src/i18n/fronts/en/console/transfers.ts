/** The console front's words on its transfers screen (keys `transfers.*`), ICU as in src/i18n/catalogues. */
export default {
  'transfers.title': 'Payments (transfers)',
  'transfers.matched': 'Matched',
  'transfers.any': 'any',
  'transfers.matchedToCheckout': 'matched to a checkout',
  'transfers.unmatched': 'unmatched',
  'transfers.chain': 'Chain',
  'transfers.checkoutId': 'Checkout id',
  'transfers.what': 'payments',
  'transfers.caption': 'Payments',
  'transfers.transfer': 'Transfer',
  'transfers.amount': 'Amount',
  'transfers.checkout': 'Checkout',
  'transfers.exception': 'Exception',
  'transfers.detected': 'Detected',
  'transfers.detailWhat': 'transfer',
  'transfers.empty': 'No payments match.',
} as const satisfies Record<`transfers.${string}`, string>;
