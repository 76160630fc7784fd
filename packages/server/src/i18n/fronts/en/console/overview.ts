/** The console front's words on its overview screen (keys `overview.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`overview.${string}`, string>;
