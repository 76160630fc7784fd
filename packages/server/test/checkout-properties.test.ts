import { parseExactJson } from '@hostpay/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCall, configureChains } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { merchantHeaders } from './http-helpers/requests.js';
import { describeStores } from './helpers.js';

/**
 * Item 2: a created checkout's `fee` is the fee preview, field for field and digit for digit,
 * for random amounts, currencies and schedules. And the bad-input rule: random create bodies
 * never get a 5xx and never leave a partial write.
 */
describeStores('checkout properties', (dialect) => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());

  const decimal = fc
    .tuple(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.integer({ min: 0, max: 8 }))
    .map(([units, scale]) => {
      const text = units.toString().padStart(scale + 1, '0');
      return scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
    });

  describe('the checkout fee is the fee preview', () => {
    it('for random amounts, currencies and schedules (fast-check)', async () => {
      const ctx = { operator: 'test' };
      const admin = fx.services.admin;
      let compared = 0;
      await fc.assert(
        fc.asyncProperty(
          decimal,
          fc.constantFrom('USDT', 'EUR', 'USD'),
          fc.record({
            isPercentage: fc.boolean(),
            value: fc.constantFrom('0', '0.5', '1.25', '2', '3.333'),
            minValue: fc.constantFrom('0', '0.5', '1'),
            onChainFee: fc.constantFrom('0', '0.1', '1'),
          }),
          async (amount, currency, tier) => {
            // A merchant schedule of its own for this run (the preview and the checkout both read it).
            await admin.setFee({ currency, merchantId: fx.demo.merchantId, ...tier }, ctx);
            const headers = await merchantHeaders(fx, fx.demo);
            const preview = await fx.app.inject({
              method: 'GET',
              url: `/api/v1/cp/psp/hosted-pay/fees-preview?amount=${amount}&currency=${currency}`,
              headers,
            });
            const created = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', {
              amount,
              currency,
              paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
            });
            if (preview.statusCode !== 200) {
              expect(created.statusCode).toBe(preview.statusCode);
              return;
            }
            const previewFee = (parseExactJson(preview.body) as { result: unknown }).result;
            if (created.statusCode === 422) {
              // Only when the fee leaves nothing to pay: the option is not offered.
              expect((parseExactJson(created.body) as { error: { code: string } }).error.code).toBe(
                'NO_PAYABLE_OPTION',
              );
              return;
            }
            expect(created.statusCode, created.body).toBe(201);
            expect((parseExactJson(created.body) as { result: { fee: unknown } }).result.fee).toEqual(previewFee);
            compared++;
          },
        ),
        { numRuns: 60 },
      );
      // Not vacuous: most runs created a checkout and compared the two.
      expect(compared).toBeGreaterThan(30);
    });
  });

  describe('create bodies from fast-check', () => {
    it('never a 5xx, and a refused body writes nothing', async () => {
      const db = fx.services.store.db;
      const count = async () =>
        Number(
          (
            await db
              .selectFrom('checkouts')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const counts = async () =>
        Promise.all([
          count(),
          db
            .selectFrom('checkout_options')
            .select('id')
            .execute()
            .then((r) => r.length),
          db
            .selectFrom('deposit_addresses')
            .select('id')
            .execute()
            .then((r) => r.length),
          db
            .selectFrom('events')
            .select('id')
            .execute()
            .then((r) => r.length),
        ]);
      const field = fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.integer(),
        fc.double(),
        fc.constant(null),
        fc.boolean(),
        fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
      );
      let created = 0;
      // Valid most of the time, so that whole bodies get through and the writes are exercised too.
      const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) =>
        fc.oneof({ arbitrary: good, weight: 9 }, { arbitrary: bad, weight: 1 });
      const body = fc.record(
        {
          amount: mostly(
            decimal,
            fc.oneof(field, fc.constantFrom('-1', '0', '1e3', '10000000000000000', '0.0000000000000000001')),
          ),
          currency: mostly(fc.constantFrom('USDT', 'EUR', 'usdt'), fc.oneof(fc.constantFrom('XYZ', ''), field)),
          orderId: mostly(
            fc.string({ minLength: 1, maxLength: 64 }),
            fc.oneof(fc.string({ minLength: 65, maxLength: 70 }), field),
          ),
          description: mostly(fc.string({ maxLength: 10 }), fc.oneof(fc.constant('x'.repeat(501)), field)),
          paymentOptions: mostly(
            fc.constant([{ asset: 'USDT', chain: 'TRON' }]),
            fc.oneof(fc.constant([{ asset: 'NOPE', chain: 'TRON' }]), fc.constant([]), field),
          ),
          expiresIn: mostly(
            fc.integer({ min: 300, max: 86_400 }),
            fc.oneof(fc.integer({ min: 0, max: 100_000 }), field),
          ),
          successUrl: mostly(
            fc.constant('https://shop.example/ok'),
            fc.oneof(
              fc.constantFrom(
                'http://shop.example/ok',
                'javascript:alert(1)',
                'http://127.0.0.1/ok',
                'https://u:p@x.example/',
              ),
              field,
            ),
          ),
          metadata: mostly(
            fc.dictionary(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ maxLength: 20 }), { maxKeys: 20 }),
            fc.oneof(
              fc.dictionary(fc.string({ maxLength: 45 }), fc.string({ maxLength: 20 }), { minKeys: 21, maxKeys: 25 }),
              field,
            ),
          ),
          unknownField: field,
        },
        { requiredKeys: ['amount'] },
      );
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          const before = await counts();
          const res = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', b);
          expect(res.statusCode, res.body).toBeLessThan(500);
          const after = await counts();
          if (res.statusCode !== 201) expect(after).toEqual(before);
          else {
            created++;
            expect(after[0]).toBe(before[0] + 1);
          }
        }),
        { numRuns: 150 },
      );
      expect(created).toBeGreaterThan(0);
    });
  });
});
