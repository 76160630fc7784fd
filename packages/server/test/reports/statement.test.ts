import { Decimal, decimalText } from '@hostpay/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInTransaction } from '../../src/features/ledger/service.js';
import type { PostingKind } from '../../src/features/ledger/tables.js';
import { DIALECTS, tempServices, type TempEnv } from '../helpers.js';

/**
 * The monthly statement against the ledger, on both stores: for random postings (every kind,
 * amounts to 6 decimals, times over four months, refused ones skipped as the ledger refuses
 * them), each month's opening + credits − debits is exactly its closing, the closing is the
 * balance a replay of the postings gives at the month's end, the frozen amount too, and each
 * month opens where the one before closed.
 */
const MONTHS = ['2027-01', '2027-02', '2027-03', '2027-04'];
const START = Date.parse('2026-12-15T00:00:00Z');
const SPAN = Date.parse('2027-05-05T00:00:00Z') - START;
const ctx = { operator: 'test' };

const posting = fc.record({
  kind: fc.constantFrom<PostingKind>('credit', 'credit', 'debit', 'freeze', 'unfreeze'),
  micros: fc.bigInt({ min: 1n, max: 50_000_000_000n }),
  at: fc.integer({ min: 0, max: SPAN }),
});

describe.each(DIALECTS)('statement on %s', (dialect) => {
  let env: TempEnv;
  let merchantId: string;

  beforeAll(async () => {
    env = await tempServices(dialect);
    merchantId = (await env.services.admin.createMerchant('Statement Shop', ctx)).id;
  }, 60_000);
  afterAll(() => env.cleanup());

  it('opening + credits − debits = closing = the ledger, exactly, every month (fast-check)', async () => {
    const { services } = env;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(posting, { minLength: 1, maxLength: 25 }), async (list) => {
        // A fresh merchant per run: its wallet's history is this run's postings only.
        const m = run++ === 0 ? merchantId : (await services.admin.createMerchant(`Shop ${run}`, ctx)).id;
        const walletId = (await services.admin.createWallet({ merchantId: m, asset: 'USDT', chain: 'TRON' }, ctx)).id;
        const applied: { kind: PostingKind; amount: Decimal; at: string }[] = [];
        let balance = new Decimal(0);
        let frozen = new Decimal(0);
        const sorted = [...list].sort((a, b) => a.at - b.at);
        for (const [i, p] of sorted.entries()) {
          const amount = new Decimal(p.micros.toString()).dividedBy(1_000_000);
          const available = balance.minus(frozen);
          const refused =
            ((p.kind === 'debit' || p.kind === 'freeze') && amount.gt(available)) ||
            (p.kind === 'unfreeze' && amount.gt(frozen));
          try {
            const { posting: row } = await services.store.writeTransaction((trx) =>
              postInTransaction(trx, services.store.dialect, {
                walletId,
                kind: p.kind,
                amount,
                idempotencyKey: `prop:${i}`,
                at: new Date(START + p.at).toISOString(),
              }),
            );
            expect(refused).toBe(false);
            if (p.kind === 'credit') balance = balance.plus(amount);
            if (p.kind === 'debit') balance = balance.minus(amount);
            if (p.kind === 'freeze') frozen = frozen.plus(amount);
            if (p.kind === 'unfreeze') frozen = frozen.minus(amount);
            applied.push({ kind: p.kind, amount, at: row.created_at });
          } catch (err) {
            expect((err as { code?: string }).code).toBe('INSUFFICIENT_FUNDS');
            expect(refused).toBe(true);
          }
        }
        // December's postings are before the first month: its opening is their balance.
        let previousClosing = decimalText(
          applied
            .filter((a) => a.at < '2027-01-01')
            .reduce(
              (x, a) => (a.kind === 'credit' ? x.plus(a.amount) : a.kind === 'debit' ? x.minus(a.amount) : x),
              new Decimal(0),
            ),
        );
        for (const month of MONTHS) {
          const s = await services.reports.statement(m, month);
          const line = s.wallets.find((w) => w.walletId === walletId)!;
          const text = (v: unknown) => String(v);
          const [opening, credits, debits, closing] = [line.opening, line.credits, line.debits, line.closing].map(
            (v) => new Decimal(text(v)),
          );
          expect(decimalText(opening!.plus(credits!).minus(debits!))).toBe(decimalText(closing!));
          expect(text(line.opening)).toBe(previousClosing);
          // The replay: every applied posting before the month's end.
          const before = applied.filter((a) => a.at < s.to);
          const replay = before.reduce(
            (acc, a) => ({
              balance:
                a.kind === 'credit'
                  ? acc.balance.plus(a.amount)
                  : a.kind === 'debit'
                    ? acc.balance.minus(a.amount)
                    : acc.balance,
              frozen:
                a.kind === 'freeze'
                  ? acc.frozen.plus(a.amount)
                  : a.kind === 'unfreeze'
                    ? acc.frozen.minus(a.amount)
                    : acc.frozen,
            }),
            { balance: new Decimal(0), frozen: new Decimal(0) },
          );
          expect(text(line.closing)).toBe(decimalText(replay.balance));
          expect(text(line.frozenAtClose)).toBe(decimalText(replay.frozen));
          const inMonth = before.filter((a) => a.at >= s.from);
          const sum = (kind: PostingKind) =>
            decimalText(inMonth.filter((a) => a.kind === kind).reduce((x, a) => x.plus(a.amount), new Decimal(0)));
          expect(text(line.credits)).toBe(sum('credit'));
          expect(text(line.debits)).toBe(sum('debit'));
          previousClosing = text(line.closing);
        }
        // The wallet's balance now is the last month's closing (every posting is before May 5).
        const w = await services.admin.getWallet(walletId);
        expect(String(w.amount)).toBe(decimalText(balance));
      }),
      { numRuns: 12 },
    );
  }, 240_000);

  it('a month that is not YYYY-MM is 400 INVALID_QUERY', async () => {
    for (const month of ['2027-13', '2027-1', 'May', undefined])
      await expect(env.services.reports.statement(merchantId, month)).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });
});
