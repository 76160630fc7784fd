/** The console front's words on its transfers screen (keys `transfers.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`transfers.${string}`, string>;
