/**
 * The hosted payment page (/pay/:id), its status answers and its message pages. Amounts,
 * addresses and networks are passed as exact text; `requiredCount` and `seconds` are numbers.
 */
export default {
  'pay.pageTitle': 'Pay {merchant} · hostpay',
  'pay.paymentTo': 'Payment to',
  'pay.detailsLabel': 'Payment details',
  'pay.optionLabel': '{asset} on {network}',
  'pay.changeNetwork': 'Change network',
  'pay.sendExactly': 'Send exactly',
  'pay.copy': 'Copy',
  'pay.copyAmountRest': 'amount',
  'pay.copyAddressRest': 'address',
  'pay.copied': 'Copied',
  'pay.copiedAnnounce': 'Copied {value}',
  'pay.toAddress': 'To this {network} address on {chain}',
  'pay.qrAlt': 'QR code: send {amount} {asset} to {address}',
  'pay.openWallet': 'Open in a wallet app',
  'pay.receivedSoFar': 'Received so far: {amount} {asset}.',
  'pay.networkWarning': 'Send only {asset} on {network}; other assets or networks are lost or delayed.',
  'pay.networkHeading': 'Network',
  'pay.paymentsReceived': 'Payments received',
  'pay.paymentItem': '{amount} on {chain}: transaction {tx}',
  'pay.opensExplorer': '(opens a block explorer)',
  'pay.viewReceipt': 'View your receipt {number}',
  'pay.noscript': 'Reload this page to see whether your payment has arrived.',
  'pay.timeLeft': 'Time left: {time} (until {clock} UTC)',
  'pay.footer': 'Payment request {id}, processed by hostpay.',

  'pay.openTitle': 'Waiting for your payment',
  'pay.openMessage': 'Send exactly the amount below to the address below before the time runs out.',
  'pay.cancelLink': 'Cancel and return to {merchant}',
  'pay.underpaidTitle': 'Partly paid',
  'pay.underpaidMessage': 'Part of the amount has arrived. Send the rest before the time runs out.',
  'pay.underpaidRemaining':
    'We received {received} {asset}. Send the remaining {remaining} {asset} on {network} to the same address before the time runs out.',
  'pay.processingTitle': 'Payment received, confirming',
  'pay.processingMessage': 'Your payment is being confirmed. You can close this page.',
  'pay.processingConfirmations':
    '{confirmedCount} of {requiredCount, plural, one {# confirmation} other {# confirmations}} so far on {network}. Nothing more to send; this page updates by itself.',
  'pay.settledTitle': 'Paid',
  'pay.settledMessage': 'Payment complete. Thank you.',
  'pay.returnLink': 'Return to {merchant}',
  'pay.overpaidComplete': 'Payment complete.',
  'pay.overpaidExcess':
    'You sent {excess} {asset} more than the {due} {asset} due. It went to {merchant} with the payment: ask them to refund the difference if you want it back.',
  'pay.overpaidOther':
    'The {amount} {asset} also sent on {network} was not needed for this payment and is held, not credited: contact {merchant} to get it back.',
  'pay.overpaidUnknown': 'You sent more than was due: contact {merchant} about the difference.',
  'pay.expiredTitle': 'This payment request has expired',
  'pay.expiredMessage': 'Do not send anything to its address. Ask {merchant} for a new payment link.',
  'pay.canceledTitle': 'Payment canceled',
  'pay.canceledMessage': '{merchant} canceled this payment request. Do not send anything to its address.',
  'pay.reviewTitle': 'Payment under review',
  'pay.reviewPartial':
    'Contact {merchant}: part of the amount arrived before the time ran out, and the rest did not. Do not send anything more.',
  'pay.reviewLate': 'Contact {merchant}: a payment arrived after this request had ended. Do not send anything more.',
  'pay.reviewWrongAsset':
    'Contact {merchant}: a payment arrived in an asset this request did not ask for. Do not send anything more.',
  'pay.reviewOther': 'Contact {merchant}: this payment needs a manual check. Do not send anything more.',
  'pay.invalidTitle': 'Payment rejected',
  'pay.invalidMessage': 'This payment was rejected after review. Contact {merchant}.',
  'pay.otherMessage': 'Contact {merchant}.',
  'pay.footerWaiting': 'Keep this page open until it says Paid: it updates by itself.',
  'pay.footerProcessing':
    'Nothing more to send. You may keep this page open to see the payment confirmed, or close it.',
  'pay.footerSettled': 'This payment is complete: you can close this page.',
  'pay.footerEnded': 'This request has ended: nothing sent to its address from now on is expected.',
  'pay.footerReview': 'Keep the transaction hash of what you sent: the merchant may ask for it.',
  'pay.footerOther': 'Contact the merchant about this payment.',

  'pay.notFoundTitle': 'Payment page not found',
  'pay.notFoundMessage':
    'This payment link is not valid, or it was mistyped. Check the link you were given, or ask the merchant for a new one.',
  'pay.tooManyTitle': 'Too many requests',
  'pay.tooManyMessage': 'Wait {seconds, plural, one {# second} other {# seconds}}, then reload this page.',
};
