/** The dashboard front's words on its webhooks screen (keys `webhooks.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`webhooks.${string}`, string>;
