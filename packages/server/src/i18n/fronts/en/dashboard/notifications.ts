/** The dashboard front's words on its notifications screen (keys `notifications.*`), ICU as in src/i18n/catalogues. */
export default {
  'notifications.checkoutSettled': 'A checkout was paid and settled',
  'notifications.checkoutNeedsReview': 'A checkout needs review',
  'notifications.payoutCompleted': 'A payout completed',
  'notifications.payoutFailed': 'A payout failed',
  'notifications.refundCompleted': 'A refund completed',
  'notifications.webhookEndpointDisabled': 'A webhook endpoint was disabled',
  'notifications.title': 'Notifications',
  'notifications.what': 'notifications',
  'notifications.bounced': 'Bounced addresses',
  'notifications.noBounce': 'No address of yours bounced.',
  'notifications.formTitle': 'Mail me when',
  'notifications.save': 'Save notifications',
  'notifications.saved': 'Notifications saved.',
  'notifications.alwaysSent': 'Security notices (password, two-factor sign-in, API keys) are always sent.',
} as const satisfies Record<`notifications.${string}`, string>;
