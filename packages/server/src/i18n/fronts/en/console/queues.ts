/** The console front's words on its queues screen (keys `queues.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`queues.${string}`, string>;
