/** The console front's words on its audit screen (keys `audit.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`audit.${string}`, string>;
