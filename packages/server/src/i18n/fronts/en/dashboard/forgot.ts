/** The dashboard front's words on its forgot screen (keys `forgot.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`forgot.${string}`, string>;
