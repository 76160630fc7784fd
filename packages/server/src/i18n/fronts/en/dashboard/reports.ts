/** The dashboard front's words on its reports screen (keys `reports.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`reports.${string}`, string>;
