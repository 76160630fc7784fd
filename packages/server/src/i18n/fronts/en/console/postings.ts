/** The console front's words on its postings screen (keys `postings.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`postings.${string}`, string>;
