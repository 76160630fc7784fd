/** The dashboard front's words on its checkout-money screen (keys `checkout-money.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`checkout-money.${string}`, string>;
