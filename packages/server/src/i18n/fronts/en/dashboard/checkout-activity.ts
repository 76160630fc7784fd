/** The dashboard front's words on its checkout-activity screen (keys `checkout-activity.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`checkout-activity.${string}`, string>;
