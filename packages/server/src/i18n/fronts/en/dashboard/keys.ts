/** The dashboard front's words on its keys screen (keys `keys.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`keys.${string}`, string>;
