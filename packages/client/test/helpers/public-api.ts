/** The runtime exports of @hostpay/client, for the package and bundle tests. */
export const PUBLIC_RUNTIME_EXPORTS = [
  'DECIMAL_FIELDS',
  'HostpayClient',
  'HostpayError',
  'WebhookVerificationError',
  'canonicalTarget',
  'compactJson',
  'decimalText',
  'defaultRetryDelay',
  'isHostpayError',
  'isRetryable',
  'resignOnReuse',
  'sign',
  'signV2',
  'verifyWebhook',
  'verifyWebhookEvent',
];
