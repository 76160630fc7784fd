import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal } from '@hostpay/protocol';
import { HostpayError } from '../src/errors.js';
import type { Services } from '../src/services.js';
import { DIALECTS, tempServices, waitFor, type Dialect } from './helpers.js';

const ctx = { operator: 'test' };

describe.each(DIALECTS)('store contract on %s', (dialect: Dialect) => {
  let env: Awaited<ReturnType<typeof tempServices>>;
  let services: Services;
  let walletId: string;
  let merchantId: string;

  beforeEach(async () => {
    env = await tempServices(dialect);
    services = env.services;
    merchantId = (await services.admin.createMerchant('Shop', ctx)).id;
    walletId = (await services.admin.createWallet({ merchantId, asset: 'USDT', chain: 'TRON' }, ctx)).id;
  });
  afterEach(() => env.cleanup());

  async function balances() {
    const w = await services.admin.getWallet(walletId);
    return { amount: String(w.amount), freeze: String(w.freezeAmount) };
  }

  describe('ledger postings', () => {
    it('credit, freeze, unfreeze and debit move the balances exactly', async () => {
      await services.admin.post({ walletId, kind: 'credit', amount: '100.000001' }, ctx);
      await services.admin.post({ walletId, kind: 'freeze', amount: '40.5' }, ctx);
      await services.admin.post({ walletId, kind: 'unfreeze', amount: '0.5' }, ctx);
      await services.admin.post({ walletId, kind: 'debit', amount: '60.000001' }, ctx);
      expect(await balances()).toEqual({ amount: '40', freeze: '40' });
    });

    it('refuses a debit or freeze above the available balance and writes nothing', async () => {
      await services.admin.post({ walletId, kind: 'credit', amount: '10' }, ctx);
      await services.admin.post({ walletId, kind: 'freeze', amount: '4' }, ctx);
      for (const [kind, amount] of [
        ['debit', '6.000001'],
        ['freeze', '6.000001'],
        ['unfreeze', '4.000001'],
      ] as const) {
        const err = await services.admin.post({ walletId, kind, amount }, ctx).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(HostpayError);
        expect((err as HostpayError).code).toBe('INSUFFICIENT_FUNDS');
        expect((err as HostpayError).status).toBe(422);
      }
      expect(await balances()).toEqual({ amount: '10', freeze: '4' });
      const count = await services.store.db
        .selectFrom('ledger_postings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(2);
    });

    it('replays the same idempotency key and refuses it for a different posting', async () => {
      const first = await services.admin.post({ walletId, kind: 'credit', amount: '5', idempotencyKey: 'k1' }, ctx);
      const again = await services.admin.post({ walletId, kind: 'credit', amount: '5.0', idempotencyKey: 'k1' }, ctx);
      expect(again.replayed).toBe(true);
      expect(again.posting.id).toBe(first.posting.id);
      await expect(
        services.admin.post({ walletId, kind: 'credit', amount: '6', idempotencyKey: 'k1' }, ctx),
      ).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
      expect(await balances()).toEqual({ amount: '5', freeze: '0' });
    });

    it('rejects amounts finer than the asset precision, non-positive or malformed', async () => {
      for (const amount of ['0.0000001', '0', '-1', '1e3', 'abc']) {
        await expect(services.admin.post({ walletId, kind: 'credit', amount }, ctx)).rejects.toMatchObject({
          code: 'INVALID_AMOUNT',
        });
      }
    });

    it('keeps 0 <= freezeAmount <= amount under any sequence of postings (property)', async () => {
      const posting = fc.record({
        kind: fc.constantFrom('credit', 'debit', 'freeze', 'unfreeze' as const),
        amount: fc.integer({ min: 1, max: 10_000_000 }).map((n) => new Decimal(n).dividedBy(1000).toFixed()),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(posting, { maxLength: 25 }), async (ops) => {
          const w = await services.admin.createWallet(
            { merchantId: (await services.admin.createMerchant('p', ctx)).id, asset: 'BTC', chain: 'BTC' },
            ctx,
          );
          let amount = new Decimal(0);
          let frozen = new Decimal(0);
          for (const op of ops) {
            const res = await services.admin
              .post({ walletId: w.id, kind: op.kind, amount: op.amount }, ctx)
              .catch((e: HostpayError) => e);
            if (res instanceof HostpayError) {
              expect(res.code).toBe('INSUFFICIENT_FUNDS');
              continue;
            }
            amount = new Decimal(res.posting.amount_after);
            frozen = new Decimal(res.posting.freeze_amount_after);
            expect(frozen.gte(0) && frozen.lte(amount)).toBe(true);
          }
          const stored = await services.store.db
            .selectFrom('wallets')
            .selectAll()
            .where('id', '=', w.id)
            .executeTakeFirstOrThrow();
          expect([stored.amount, stored.freeze_amount]).toEqual([amount.toFixed(), frozen.toFixed()]);
        }),
        { numRuns: 20 },
      );
    });

    it('a posting is visible in the next wallet list (cache invalidated exactly then)', async () => {
      const before = await services.merchant.walletListBody(merchantId);
      expect(await services.merchant.walletListBody(merchantId)).toBe(before);
      await services.admin.post({ walletId, kind: 'credit', amount: '1234.5' }, ctx);
      const after = await services.merchant.walletListBody(merchantId);
      expect(after).not.toBe(before);
      expect(after).toContain('"amount":1234.5');
    });

    // SQLite notices through PRAGMA data_version (at once); PostgreSQL without Redis through
    // LISTEN/NOTIFY (within milliseconds); with Redis, see test/multi-instance.
    it('sees a write made by another process or instance', async () => {
      if (dialect === 'postgres') await waitFor(() => services.caches.enabled, 'the change feed to listen');
      const before = await services.merchant.walletListBody(merchantId);
      expect(await services.merchant.walletListBody(merchantId)).toBe(before); // now cached
      const other = await env.reopen();
      await other.admin.post({ walletId, kind: 'credit', amount: '7' }, ctx);
      await other.close();
      const started = Date.now();
      if (dialect === 'postgres')
        await waitFor(async () => (await services.merchant.walletListBody(merchantId)) !== before, 'the invalidation');
      const after = await services.merchant.walletListBody(merchantId);
      expect(after).toContain('"amount":7');
      expect(Date.now() - started).toBeLessThan(1000);
    });
  });
});
