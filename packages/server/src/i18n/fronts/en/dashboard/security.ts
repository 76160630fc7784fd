/** The dashboard front's words on its security screen (keys `security.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`security.${string}`, string>;
