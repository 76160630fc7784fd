/** The console front's words on its merchants screen (keys `merchants.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`merchants.${string}`, string>;
