/** The dashboard front's words on its invoices screen (keys `invoices.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`invoices.${string}`, string>;
