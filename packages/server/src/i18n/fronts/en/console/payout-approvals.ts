/** The console front's words on its payout-approvals screen (keys `payout-approvals.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`payout-approvals.${string}`, string>;
