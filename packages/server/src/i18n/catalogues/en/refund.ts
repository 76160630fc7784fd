/**
 * The refund page (/pay/{id}/refund/{token}): where a payer gives the address a refund goes to.
 * `{amount}` is the exact crypto amount with its asset, `{address}` the payer's address, `{when}`
 * a date and time already written in the language (with "UTC").
 */
export default {
  'refund.from': 'Refund from',
  'refund.paidBackIn': 'Paid back in {asset} on {network}.',
  'refund.formTitle': 'Get your refund',
  'refund.checkAddressTitle': 'Check the address',
  'refund.whereHeading': 'Where should the refund go?',
  'refund.whereMessage': 'Enter your own {asset} address on {network}. This link works once, until {when}.',
  'refund.addressLabel': 'Your {asset} address on {network}',
  // `{starts}`: the prefixes, already joined with "or" in the language ("bc1, 1 or 3"); `count`
  // the hex digits after it, or the address's whole length.
  'refund.addressHintHex':
    'It starts with {starts} followed by {count, plural, one {# letter a–f or digit} other {# letters a–f and digits}}.',
  'refund.addressHintLength':
    'It starts with {starts} and is {count, plural, one {# character} other {# characters}} long.',
  'refund.addressHintStarts': 'It starts with {starts}.',
  'refund.otherNetwork': 'Money sent to an address on another network is lost.',
  'refund.submit': 'Send my refund here',
  'refund.addressMissing': 'Enter the address the refund should go to.',
  'refund.addressBurn':
    'This is not an address the refund can be sent to: nobody holds its key, so money sent there can never be spent. Give an address you control.',
  'refund.addressInvalid':
    'This is not an address the refund can be sent to: check that it is your {asset} address on {network}, complete and without a typo.',
  'refund.requestedTitle': 'Refund requested',
  'refund.requestedMessage':
    '{amount} will be sent to {address}. {merchant} has been told; the refund is sent once it is approved. You can close this page.',
  'refund.usedTitle': 'Refund link already used',
  'refund.usedHeading': 'This refund link was already used',
  'refund.usedMessage': 'An address was given on {when}; a link works once. If that was not you, contact {merchant}.',
  'refund.expiredTitle': 'Refund link expired',
  'refund.expiredHeading': 'This refund link has expired',
  'refund.expiredMessage': 'It worked until {when}. Ask {merchant} for a new one.',
  'refund.nothingLeftTitle': 'Nothing left to refund',
  'refund.nothingLeftMessage': 'This payment was already refunded. Contact {merchant} if you expected more.',
  'refund.notFoundTitle': 'Refund link not found',
  'refund.notFoundMessage':
    'This refund link is not valid, or it was mistyped. Check the link you were given, or ask the merchant for a new one.',
  'refund.notRequestedTitle': 'Refund not requested',
  'refund.crossSite':
    'This form can only be sent from its own page. Open the refund link you were given and try again.',
  'refund.merchantCannotPay':
    'The merchant cannot pay this refund right now. Your link still works: try again later, or contact the merchant.',
  'refund.tooManyTitle': 'Too many requests',
  'refund.tooManyMessage': 'Wait {seconds, plural, one {# second} other {# seconds}}, then reload this page.',
  'refund.footer': 'Refund of payment {checkoutId}, processed by hostpay.',
};
