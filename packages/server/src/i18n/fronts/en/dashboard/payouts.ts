/** The dashboard front's words on its payouts screen (keys `payouts.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`payouts.${string}`, string>;
