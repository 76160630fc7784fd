import { parseJson } from './decimals.js';
import { verifyWebhook, type VerifyWebhookOptions, type WebhookHeaders } from './webhooks.js';

/**
 * A verified event, decimals as exact text: `data.object`'s amounts (`amount`, `amountDue`,
 * `received`, `fee`, `balance`, …) are strings holding every digit the server wrote.
 */
export interface WebhookEventJson {
  id: string;
  type: string;
  createdAt: string;
  sequence: number;
  data: { object: Record<string, unknown> };
}

/**
 * Verifies a delivery on its raw body (the bytes as received, before any parsing), then parses
 * that same text exactly. Verifying a re-serialised body fails (any byte differs), and a library
 * that returns `JSON.parse` output rounds amounts to binary floats: `12.345678901234567891`
 * becomes `12.345678901234567`. Rejects with WebhookVerificationError when the delivery is not
 * authentic and fresh.
 */
export async function verifyWebhookEvent(
  body: string,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEventJson> {
  await verifyWebhook(body, headers, secret, options);
  return parseJson(body, 'string', 'event') as WebhookEventJson;
}
