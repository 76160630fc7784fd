import { describe, expect, it } from 'vitest';
import { eventAction, sessionStatus } from '../src/status.js';

describe('hostpay checkout states → Medusa', () => {
  it('maps every state: settled is captured, waiting is pending, dead is canceled, review requires more', () => {
    expect(
      Object.fromEntries(
        ['open', 'underpaid', 'processing', 'settled', 'expired', 'canceled', 'needs_review', 'invalid'].map((s) => [
          s,
          sessionStatus(s),
        ]),
      ),
    ).toEqual({
      open: 'pending',
      underpaid: 'pending',
      processing: 'pending',
      settled: 'captured',
      expired: 'canceled',
      canceled: 'canceled',
      needs_review: 'requires_more',
      invalid: 'error',
    });
  });

  it('a state a newer server adds is pending (never captured by accident); prototype names are no states', () => {
    expect(sessionStatus('refunded_later')).toBe('pending');
    expect(sessionStatus('constructor')).toBe('pending');
    expect(sessionStatus('toString')).toBe('pending');
  });

  it('maps the checkout events to webhook actions and ignores every other event', () => {
    expect(eventAction('checkout.settled')).toBe('captured');
    expect(eventAction('checkout.underpaid')).toBe('pending');
    expect(eventAction('checkout.processing')).toBe('pending');
    expect(eventAction('checkout.expired')).toBe('canceled');
    expect(eventAction('checkout.canceled')).toBe('canceled');
    expect(eventAction('checkout.needs_review')).toBe('requires_more');
    expect(eventAction('checkout.invalid')).toBe('failed');
    for (const other of ['checkout.created', 'payout.completed', 'refund.requested', 'test.ping', '__proto__'])
      expect(eventAction(other), other).toBe('not_supported');
  });
});
