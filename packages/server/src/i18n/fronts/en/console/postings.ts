/** The console front's words on its postings screen (keys `postings.*`), ICU as in src/i18n/catalogues. */
export default {
  'postings.title': 'Ledger postings',
  'postings.wallet': 'Wallet',
  'postings.chooseWallet': 'choose a wallet',
  'postings.walletOption': '{asset} on {chain} · {merchantId} · {id}',
  'postings.choose': 'Choose a wallet to see its postings, oldest first.',
  'postings.what': 'postings',
  'postings.caption': 'Postings',
  'postings.posting': 'Posting',
  'postings.kind': 'Kind',
  'postings.amount': 'Amount',
  'postings.balanceAfter': 'Balance after',
  'postings.frozenAfter': 'Frozen after',
  'postings.at': 'At',
  'postings.detailWhat': 'posting',
  'postings.empty': 'No postings.',
} as const satisfies Record<`postings.${string}`, string>;
