import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '@hostpay/client';
import { readVectorFile } from '../../protocol/test/vectors.js';

interface WebhookCase {
  name: string;
  secret: string;
  msgId: string;
  timestamp: number;
  now: number;
  toleranceSeconds: number;
  body: string;
  signatureHeader: string;
  expect: 'accept' | 'reject';
}
const cases = readVectorFile<{ cases: WebhookCase[] }>('webhooks.json').cases;

describe('verifyWebhook against vectors/webhooks.json', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const headers = {
      'webhook-id': c.msgId,
      'webhook-timestamp': String(c.timestamp),
      'webhook-signature': c.signatureHeader,
    };
    const result = verifyWebhook(c.body, headers, c.secret, { now: c.now, tolerance: c.toleranceSeconds });
    if (c.expect === 'accept') await expect(result).resolves.toBe(true);
    else await expect(result).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('takes fetch Headers, bytes, a Date or milliseconds for now', async () => {
    const c = cases.find((x) => x.name === 'unicode')!;
    const headers = new Headers({
      'Webhook-Id': c.msgId,
      'Webhook-Timestamp': String(c.timestamp),
      'Webhook-Signature': c.signatureHeader,
    });
    await expect(
      verifyWebhook(new TextEncoder().encode(c.body), headers, c.secret, { now: new Date(c.now * 1000) }),
    ).resolves.toBe(true);
    await expect(verifyWebhook(c.body, headers, c.secret, { now: c.now * 1000 + 999 })).resolves.toBe(true);
    const missing = await verifyWebhook(c.body, {}, c.secret).catch((e: WebhookVerificationError) => e);
    expect(missing).toMatchObject({ name: 'WebhookVerificationError', reason: 'missing_header' });
  });
});
