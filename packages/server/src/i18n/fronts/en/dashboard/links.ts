/** The dashboard front's words on its links screen (keys `links.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`links.${string}`, string>;
