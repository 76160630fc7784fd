/**
 * The payment link page (/l/{slug}). Amounts (`{amount}`, `{min}`, `{max}`) are already written in
 * the language: a fiat currency formatted, a crypto amount as its exact text and symbol.
 */
export default {
  'link.paymentTo': 'Payment to {merchant}',
  'link.items': 'Items',
  'link.itemLine': '{quantity} × {name}',
  'link.total': 'Total',
  'link.amountLabel': 'Amount ({currency})',
  'link.amountAtLeast': 'At least {min}.',
  'link.amountAtMost': 'At most {max}.',
  'link.amountBetween': 'From {min} to {max}.',
  'link.amountDecimals':
    '{count, plural, =0 {Whole amounts only.} one {Up to # decimal place.} other {Up to # decimal places.}}',
  'link.email': 'Email',
  'link.emailOptional': 'Email (optional)',
  'link.emailHint': 'The merchant sends your receipt there.',
  'link.pay': 'Pay',
  'link.footer': 'Payment link of {merchant}, processed by hostpay.',
  'link.amountMissing': 'Enter the amount to pay in {currency}.',
  'link.amountNotNumber': 'Enter the amount as a number greater than 0, such as 25.',
  'link.amountTooPrecise':
    '{count, plural, =0 {Enter a whole amount, without decimals.} one {Enter an amount with at most # decimal place.} other {Enter an amount with at most # decimal places.}}',
  'link.amountTooSmall': 'The amount must be at least {min}.',
  'link.amountTooLarge': 'The amount must be at most {max}.',
  'link.emailRequired': 'Enter your email address: the merchant needs it for this payment.',
  'link.emailInvalid': 'Enter one email address, such as name@example.com.',
  'link.formTooOld':
    'This form is older than {minutes, plural, one {# minute} other {# minutes}}. Check the details and press Pay again.',
  'link.inactiveTitle': 'This payment link is inactive',
  'link.inactiveMessage': 'The merchant switched it off. Ask them for a new link.',
  'link.expiredTitle': 'This payment link has expired',
  'link.expiredMessage': 'It stopped taking payments on {when}. Ask the merchant for a new link.',
  'link.usedUpTitle': 'This payment link is used up',
  'link.usedUpMessage':
    'It was made for {count, plural, one {# payment} other {# payments}} and takes no more. Ask the merchant for a new link.',
  'link.notFoundTitle': 'Payment link not found',
  'link.notFoundMessage': 'This payment link is not valid, or it was mistyped. Check the link you were given.',
  'link.notStartedTitle': 'Payment not started',
  'link.crossSite': 'This form can only be sent from its own page. Open the payment link again and try there.',
  'link.merchantCannotTake': 'The merchant cannot take payments right now. Try again later, or contact the merchant.',
  'link.tooManyTitle': 'Too many requests',
  'link.tooManyMessage': 'Wait {seconds, plural, one {# second} other {# seconds}}, then try again.',
};
