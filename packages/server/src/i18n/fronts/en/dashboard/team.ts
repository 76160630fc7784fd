/** The dashboard front's words on its team screen (keys `team.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`team.${string}`, string>;
