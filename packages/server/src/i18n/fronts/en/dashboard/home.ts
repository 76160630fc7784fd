/** The dashboard front's words on its home screen (keys `home.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`home.${string}`, string>;
