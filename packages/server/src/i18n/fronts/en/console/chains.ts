/** The console front's words on its chains screen (keys `chains.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`chains.${string}`, string>;
