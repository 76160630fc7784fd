/** The dashboard front's words on its checkout-money screen (keys `checkout-money.*`), ICU as in src/i18n/catalogues. */
export default {
  'checkout-money.received': 'Received',
  'checkout-money.onChain': 'on {chain}',
  'checkout-money.fee': 'Fee',
  'checkout-money.notCredited': '— (not credited)',
  'checkout-money.netCredited': 'Net credited',
  'checkout-money.refunded': 'Refunded',
  'checkout-money.refundable': 'Refundable',
  'checkout-money.refunds': 'Refunds',
  'checkout-money.refundsCaption': 'Refunds of this checkout, oldest first',
  'checkout-money.amount': 'Amount',
  'checkout-money.status': 'Status',
  'checkout-money.to': 'To',
  'checkout-money.requested': 'Requested',
  'checkout-money.payout': 'Payout',
} as const satisfies Record<`checkout-money.${string}`, string>;
