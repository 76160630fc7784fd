import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { decideWebhook, rawText } from '../src/webhook.js';

/**
 * Deliveries signed by the official Standard Webhooks library (not by our code), checked by the
 * provider's webhook decision: what Medusa's route hands it, as Medusa hands it.
 */
const SECRET = `whsec_${Buffer.from('a-32-byte-secret-for-the-tests!!').toString('base64')}`;
const OTHER = `whsec_${Buffer.from('another-secret-an-attacker-knows').toString('base64')}`;
const NOW = Date.UTC(2027, 2, 1, 12, 0, 0);

function checkoutEvent(type: string, object: Record<string, unknown>): string {
  // Amounts as hostpay writes them: exact JSON number literals.
  const amount = (object['amount'] as string | undefined) ?? '49.99';
  const rest = JSON.stringify({ id: 'chk_abc', status: 'settled', currency: 'EUR', orderId: 'payses_01J9', ...object });
  return `{"id":"evt_1","type":"${type}","createdAt":"2027-03-01T12:00:00.000Z","sequence":7,"data":{"object":{"amount":${amount},${rest.slice(1)}}}`;
}

function signed(body: string, opts: { secret?: string; at?: number; id?: string } = {}) {
  const at = new Date(opts.at ?? NOW);
  const id = opts.id ?? 'evt_1';
  const signature = new Webhook(opts.secret ?? SECRET).sign(id, at, body);
  return {
    rawData: Buffer.from(body),
    data: JSON.parse(body) as Record<string, unknown>,
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
  };
}

const decide = (payload: Parameters<typeof decideWebhook>[0], tolerance?: number) =>
  decideWebhook(payload, { secret: SECRET, now: NOW, ...(tolerance === undefined ? {} : { tolerance }) });

describe('webhook verification and decision', () => {
  it('checkout.settled with a good signature captures the session named in orderId, amount exact', async () => {
    const body = checkoutEvent('checkout.settled', { amount: '1234567890.123456789012345678' });
    const d = await decide(signed(body));
    expect(d.action).toBe('captured');
    expect(d.data).toEqual({ session_id: 'payses_01J9', amount: '1234567890.123456789012345678' });
    expect(d.ignored).toBeUndefined();
  });

  it('the raw body is what is verified, as a Buffer, a string, or a Buffer that crossed the event bus as JSON', async () => {
    const body = checkoutEvent('checkout.settled', {});
    const p = signed(body);
    expect((await decide({ ...p, rawData: body })).action).toBe('captured');
    const viaBus = JSON.parse(JSON.stringify({ raw: Buffer.from(body) })).raw;
    expect(viaBus.type).toBe('Buffer');
    expect(rawText(viaBus)).toBe(body);
    expect((await decide({ ...p, rawData: viaBus })).action).toBe('captured');
    // Without the raw body nothing can be verified: re-serialising `data` is never trusted.
    const none = await decide({ ...p, rawData: undefined });
    expect([none.action, none.ignored?.reason]).toEqual(['not_supported', 'no_raw_body']);
  });

  it('a forged delivery (signed with another secret) is refused', async () => {
    const d = await decide(signed(checkoutEvent('checkout.settled', {}), { secret: OTHER }));
    expect([d.action, d.ignored?.reason, d.data]).toEqual(['not_supported', 'no_matching_signature', undefined]);
  });

  it('a tampered body (amount or session changed after signing) is refused', async () => {
    const good = signed(checkoutEvent('checkout.settled', { amount: '10' }));
    const tampered = checkoutEvent('checkout.settled', { amount: '10', orderId: 'payses_OTHER' });
    const d = await decide({ ...good, rawData: Buffer.from(tampered) });
    expect([d.action, d.ignored?.reason]).toEqual(['not_supported', 'no_matching_signature']);
    const reformatted = JSON.stringify(JSON.parse(good.rawData.toString()), null, 1);
    expect((await decide({ ...good, rawData: reformatted })).ignored?.reason).toBe('no_matching_signature');
  });

  it('a replayed delivery (genuine, but its timestamp older than the window) is refused; so is one from the future', async () => {
    const body = checkoutEvent('checkout.settled', {});
    const old = await decide(signed(body, { at: NOW - 301_000 }));
    expect([old.action, old.ignored?.reason]).toEqual(['not_supported', 'timestamp_too_old']);
    const future = await decide(signed(body, { at: NOW + 301_000 }));
    expect([future.action, future.ignored?.reason]).toEqual(['not_supported', 'timestamp_too_new']);
    // Inside the window it passes; a tolerance of 60 s makes 2 minutes old a replay.
    expect((await decide(signed(body, { at: NOW - 120_000 }))).action).toBe('captured');
    expect((await decide(signed(body, { at: NOW - 120_000 }), 60)).ignored?.reason).toBe('timestamp_too_old');
  });

  it('a signature for another webhook-id, or missing headers, is refused', async () => {
    const p = signed(checkoutEvent('checkout.settled', {}));
    const swapped = await decide({ ...p, headers: { ...p.headers, 'webhook-id': 'evt_2' } });
    expect(swapped.ignored?.reason).toBe('no_matching_signature');
    for (const h of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const headers: Record<string, string> = { ...p.headers };
      delete headers[h];
      expect((await decide({ ...p, headers })).ignored?.reason, h).toBe('missing_header');
    }
    expect((await decide({ ...p, headers: undefined })).ignored?.reason).toBe('missing_header');
  });

  it('authentic events it cannot attribute to a Medusa session, or that are no checkout events, do nothing', async () => {
    for (const orderId of [null, 'order-17', 'payses_', 'payses_a/../b']) {
      const d = await decide(signed(checkoutEvent('checkout.settled', { orderId })));
      expect([d.action, d.ignored?.reason], String(orderId)).toEqual(['not_supported', 'not_a_medusa_checkout']);
    }
    const payout = await decide(signed(checkoutEvent('payout.completed', {})));
    expect([payout.action, payout.ignored?.reason]).toEqual(['not_supported', 'other_event']);
  });

  it('the other checkout events map to their actions for the session', async () => {
    for (const [type, action] of [
      ['checkout.underpaid', 'pending'],
      ['checkout.processing', 'pending'],
      ['checkout.expired', 'canceled'],
      ['checkout.canceled', 'canceled'],
      ['checkout.needs_review', 'requires_more'],
    ]) {
      const d = await decide(signed(checkoutEvent(type!, {})));
      expect([d.action, d.data?.session_id], type).toEqual([action, 'payses_01J9']);
    }
  });
});
