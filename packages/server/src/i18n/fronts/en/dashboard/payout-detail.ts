/** The dashboard front's words on its payout-detail screen (keys `payout-detail.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`payout-detail.${string}`, string>;
