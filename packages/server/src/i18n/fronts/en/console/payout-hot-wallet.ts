/** The console front's words on its payout-hot-wallet screen (keys `payout-hot-wallet.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`payout-hot-wallet.${string}`, string>;
