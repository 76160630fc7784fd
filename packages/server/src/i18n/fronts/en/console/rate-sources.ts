/** The console front's words on its rate-sources screen (keys `rate-sources.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`rate-sources.${string}`, string>;
