/** The dashboard front's words on its events screen (keys `events.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`events.${string}`, string>;
