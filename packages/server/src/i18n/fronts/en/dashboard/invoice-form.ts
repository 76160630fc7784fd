/** The dashboard front's words on its invoice-form screen (keys `invoice-form.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`invoice-form.${string}`, string>;
