import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { webhookHeaders } from '@hostpay/protocol';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhookEvent, WebhookVerificationError } from '@hostpay/client';

/**
 * Issue 26, item 14: a merchant verifies a delivery on the raw body and then parses it exactly.
 * `standardwebhooks`' verify returns JSON.parse output, whose amounts are rounded.
 */
const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const BODY =
  '{"id":"evt_1","type":"wallet.balance_changed","createdAt":"2026-11-26T09:00:00.000Z","sequence":7,' +
  '"data":{"object":{"walletId":"wal_1","postingId":"pst_1","kind":"credit","amount":12.345678901234567891,' +
  '"balance":1000000.000000000000000001,"freezeAmount":0,"checkoutId":"chk_1"}}}';
const now = Math.floor(Date.now() / 1000);
const headers = webhookHeaders([SECRET], 'evt_1', now, BODY);

describe('verifying on the raw body, then parsing exactly', () => {
  it('verifyWebhookEvent returns the event with every digit of its amounts', async () => {
    const event = await verifyWebhookEvent(BODY, headers, SECRET);
    expect(event).toMatchObject({ id: 'evt_1', type: 'wallet.balance_changed', sequence: 7 });
    expect(event.data.object).toMatchObject({
      amount: '12.345678901234567891',
      balance: '1000000.000000000000000001',
      freezeAmount: '0',
    });
  });

  it("what standardwebhooks' verify returns has lost digits (why docs/webhooks.md does not use it)", () => {
    const parsed = new Webhook(SECRET).verify(BODY, headers) as { data: { object: { amount: number } } };
    expect(String(parsed.data.object.amount)).toBe('12.345678901234567');
  });

  it('a body changed by a parse and re-serialisation no longer verifies', async () => {
    const reserialised = JSON.stringify(JSON.parse(BODY));
    await expect(verifyWebhookEvent(reserialised, headers, SECRET)).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('docs/webhooks.md shows verifyWebhookEvent on the raw body and never uses the value verify returns', () => {
    const md = readFileSync(fileURLToPath(new URL('../../../docs/webhooks.md', import.meta.url)), 'utf8');
    const verifying = md.slice(md.indexOf('## Verifying'), md.indexOf('## Testing locally'));
    expect(verifying).toContain('await verifyWebhookEvent(body, request.headers');
    expect(verifying).toContain('12.345678901234567891');
    expect(verifying).not.toMatch(/(?:const|let|var)\s+\w+\s*=\s*\w+\.verify\(/);
    expect(verifying).not.toMatch(/^\s*event\s*=\s*wh\.verify\(/m);
  });
});
