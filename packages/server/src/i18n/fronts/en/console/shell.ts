/** The console front's words on its shell screen (keys `shell.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`shell.${string}`, string>;
