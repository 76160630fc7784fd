import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHECKOUT_REASONS,
  CHECKOUT_STATUSES,
  FINAL_STATUSES,
  transition,
  TRANSITIONS,
  type CheckoutEvent,
  type CheckoutStatus,
} from '../src/features/checkouts/states.js';

// The contract's table (spec "States"), written out independently of the implementation's rows:
// [from, event, to, reason]. Every row must be allowed with exactly this outcome, and nothing else.
const CONTRACT: [CheckoutStatus, CheckoutEvent, CheckoutStatus, string | null][] = [
  ['open', { kind: 'partial_payment' }, 'underpaid', 'paid_partial'],
  ['open', { kind: 'threshold_reached' }, 'processing', null],
  ['underpaid', { kind: 'threshold_reached' }, 'processing', null],
  ['processing', { kind: 'confirmed', overpaid: false }, 'settled', null],
  ['processing', { kind: 'confirmed', overpaid: true }, 'settled', 'paid_over'],
  ['processing', { kind: 'payment_retracted', anyLeft: true }, 'underpaid', 'payment_retracted'],
  ['processing', { kind: 'payment_retracted', anyLeft: false }, 'open', 'payment_retracted'],
  ['open', { kind: 'merchant_cancel' }, 'canceled', 'canceled_by_merchant'],
  ['open', { kind: 'expire' }, 'expired', null],
  ['underpaid', { kind: 'expire' }, 'needs_review', 'paid_partial'],
  ['expired', { kind: 'late_payment' }, 'needs_review', 'paid_late'],
  ['canceled', { kind: 'late_payment' }, 'needs_review', 'paid_late'],
  ['open', { kind: 'wrong_asset' }, 'needs_review', 'wrong_asset'],
  ['underpaid', { kind: 'wrong_asset' }, 'needs_review', 'wrong_asset'],
  ['processing', { kind: 'wrong_asset' }, 'needs_review', 'wrong_asset'],
  ['needs_review', { kind: 'operator_reject' }, 'invalid', 'rejected_by_operator'],
];

const EVENTS: CheckoutEvent[] = [
  { kind: 'partial_payment' },
  { kind: 'threshold_reached' },
  { kind: 'confirmed', overpaid: false },
  { kind: 'confirmed', overpaid: true },
  { kind: 'payment_retracted', anyLeft: true },
  { kind: 'payment_retracted', anyLeft: false },
  { kind: 'merchant_cancel' },
  { kind: 'expire' },
  { kind: 'late_payment' },
  { kind: 'wrong_asset' },
  { kind: 'operator_settle' },
  { kind: 'operator_reject' },
];
const REASONS = [null, ...CHECKOUT_REASONS];

describe('checkout states: the transition table is the contract’s, and nothing more', () => {
  for (const [from, event, to, reason] of CONTRACT) {
    it(`${from} --${event.kind}${'overpaid' in event ? `(overpaid ${event.overpaid})` : ''}${'anyLeft' in event ? `(anyLeft ${event.anyLeft})` : ''}--> ${to}${reason ? ` (${reason})` : ''}`, () => {
      expect(transition(from, null, event)).toEqual({ from, to, reason });
    });
  }

  it('operator settle from needs_review keeps the review reason', () => {
    for (const reason of ['paid_partial', 'paid_late', 'wrong_asset'] as const) {
      expect(transition('needs_review', reason, { kind: 'operator_settle' })).toEqual({
        from: 'needs_review',
        to: 'settled',
        reason,
      });
    }
  });

  it('every other (status, event) pair is refused', () => {
    const allowed = new Set([...CONTRACT.map(([f, e]) => `${f} ${e.kind}`), 'needs_review operator_settle']);
    fc.assert(
      fc.property(
        fc.constantFrom(...CHECKOUT_STATUSES),
        fc.constantFrom(...EVENTS),
        fc.constantFrom(...REASONS),
        (status, event, reason) => {
          const t = transition(status, reason, event);
          expect(t === undefined, `${status} ${event.kind}`).toBe(!allowed.has(`${status} ${event.kind}`));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('settled and invalid never change', () => {
    for (const status of FINAL_STATUSES)
      for (const event of EVENTS) expect(transition(status, null, event)).toBeUndefined();
  });

  it('the table names each (from, event) pair once', () => {
    const pairs = TRANSITIONS.flatMap((r) => r.from.map((f) => `${f} ${r.event}`));
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('any sequence of events walks only through the table, and ends as it must', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EVENTS), { maxLength: 30 }), (events) => {
        let status: CheckoutStatus = 'open';
        let reason: (typeof REASONS)[number] = null;
        for (const event of events) {
          const t = transition(status, reason, event);
          if (t === undefined) continue;
          expect(FINAL_STATUSES.has(status)).toBe(false);
          status = t.to;
          reason = t.reason;
        }
        expect(CHECKOUT_STATUSES).toContain(status);
      }),
    );
  });
});
