/** The dashboard front's words on its settings screen (keys `settings.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`settings.${string}`, string>;
