/** The dashboard front's words on its events screen (keys `events.*`), ICU as in src/i18n/catalogues. */
export default {
  'events.title': 'Events',
  'events.types': 'Types (comma-separated)',
  'events.what': 'events',
  'events.caption': 'Events, newest first',
  'events.empty': 'No event.',
  'events.type': 'Type',
  'events.object': 'Object',
  'events.at': 'At',
  'events.event': 'event',
  'events.resend': 'Resend',
  'events.sentAgain': 'Event sent again.',
} as const satisfies Record<`events.${string}`, string>;
