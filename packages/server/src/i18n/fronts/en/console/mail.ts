/** The console front's words on its mail screen (keys `mail.*`), ICU as in src/i18n/catalogues. */
export default {} as const satisfies Record<`mail.${string}`, string>;
