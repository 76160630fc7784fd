/** The dashboard front's words on its checkouts screen (keys `checkouts.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`checkouts.${string}`, string>;
