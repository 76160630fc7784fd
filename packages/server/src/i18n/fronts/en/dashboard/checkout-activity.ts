/** The dashboard front's words on its checkout-activity screen (keys `checkout-activity.*`), ICU as in src/i18n/catalogues. */
export default {
  'checkout-activity.events': 'Events',
  'checkout-activity.eventsCaption': 'Events of this checkout',
  'checkout-activity.noEvent': 'No event yet.',
  'checkout-activity.type': 'Type',
  'checkout-activity.at': 'At',
  'checkout-activity.event': 'Event',
  'checkout-activity.deliveries': 'Webhook deliveries',
  'checkout-activity.deliveriesCaption': "Webhook deliveries of this checkout's events",
  'checkout-activity.noDelivery': 'No delivery: no endpoint, or nothing sent yet.',
  'checkout-activity.answer': 'Answer',
  'checkout-activity.answerOk': '{status} ok',
} as const satisfies Record<`checkout-activity.${string}`, string>;
