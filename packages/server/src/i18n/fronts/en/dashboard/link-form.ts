/** The dashboard front's words on its link-form screen (keys `link-form.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`link-form.${string}`, string>;
