/** The console front's words on its payout-hot-wallet screen (keys `payout-hot-wallet.*`), ICU as in src/i18n/catalogues. */
export default {
  'payout-hot-wallet.title': 'Hot wallet transaction',
  'payout-hot-wallet.state': 'State',
  'payout-hot-wallet.atNonce': 'at nonce {nonce}, ',
  'payout-hot-wallet.nodeAnswer': 'Node answer',
  'payout-hot-wallet.forgottenSince': '{answer} (forgotten since {since})',
  'payout-hot-wallet.cancelByReplacement': 'Cancel by replacement',
  'payout-hot-wallet.cancelStatus': '{status}, asked by {by} at {at}',
  'payout-hot-wallet.caption': 'Transactions of payout {id}',
  'payout-hot-wallet.hash': 'Hash',
  'payout-hot-wallet.kind': 'Kind',
  'payout-hot-wallet.status': 'Status',
  'payout-hot-wallet.maxFee': 'Max fee (wei)',
  'payout-hot-wallet.block': 'Block',
  'payout-hot-wallet.signed': 'Signed',
  'payout-hot-wallet.rebroadcasted': 'The node took the transaction.',
  'payout-hot-wallet.refusedAgain': 'The node refused it again: {answer}',
  'payout-hot-wallet.cancelTitle': 'Cancel {id} by replacement?',
  'payout-hot-wallet.cancelBodyBefore':
    'The hot wallet signs a transfer of 0 to itself at nonce {nonce}, with a higher fee, in place of ',
  'payout-hot-wallet.cancelBodyAfter':
    ". The payout fails and its total is released to the merchant only once that is mined to the chain's depth. If the payout's own transaction is mined first, the payout completes and the cancel is lost. Either way the wallet pays the gas of one transaction.",
  'payout-hot-wallet.cancelAsked': 'Cancel by replacement of {id} asked for: the sender signs it at its next round.',
  'payout-hot-wallet.rebroadcast': 'Rebroadcast',
  'payout-hot-wallet.cancelButton': 'Cancel by replacement…',
} as const satisfies Record<`payout-hot-wallet.${string}`, string>;
