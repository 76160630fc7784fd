/** The dashboard front's words on its auth screen (keys `auth.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`auth.${string}`, string>;
