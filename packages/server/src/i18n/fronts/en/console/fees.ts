/** The console front's words on its fees screen (keys `fees.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`fees.${string}`, string>;
