/** The dashboard front's words on its notifications screen (keys `notifications.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`notifications.${string}`, string>;
