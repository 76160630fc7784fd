import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './helpers.js';
import { createAdminFixture, errorOf, resultOf } from './http-helpers/admin-fixture.js';
import { checkoutCall, configureChains } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/**
 * Issue 24 item 10: a malformed header and a NUL character in a body have codes of their own
 * (INVALID_HEADER, INVALID_BODY) instead of INVALID_QUERY, and write nothing, on both stores.
 */
describe.each(DIALECTS)('operator API (%s)', (dialect) => {
  it('a malformed Idempotency-Key is 400 INVALID_HEADER naming the header; nothing is created', async () => {
    const fx = await createAdminFixture(dialect);
    try {
      const before = resultOf<{ items: unknown[] }>(await fx.call('GET', '/merchants')).items.length;
      for (const key of ['has space', 'x'.repeat(129), 'ünïcode', '']) {
        const err = errorOf(
          await fx.call('POST', '/merchants', { body: { name: 'Header Shop' }, headers: { 'idempotency-key': key } }),
          400,
          'INVALID_HEADER',
        );
        expect(err.message).toContain('Idempotency-Key'.toLowerCase());
      }
      expect(resultOf<{ items: unknown[] }>(await fx.call('GET', '/merchants')).items).toHaveLength(before);
      // The well-formed key is accepted: what the refusals above test is the key's form.
      resultOf(
        await fx.call('POST', '/merchants', { body: { name: 'Header Shop' }, idempotencyKey: 'good-key:1' }),
        201,
      );
    } finally {
      await fx.close();
    }
  });

  it('a NUL character in a body field is 400 INVALID_BODY naming the field; nothing is written', async () => {
    const fx = await createAdminFixture(dialect);
    try {
      const before = resultOf<{ items: unknown[] }>(await fx.call('GET', '/merchants')).items.length;
      const err = errorOf(
        await fx.call('POST', '/merchants', { body: '{"name":"Nul\\u0000Shop"}' }),
        400,
        'INVALID_BODY',
      );
      expect(err.message).toContain('`name`');
      expect(err.message).toContain('NUL');
      expect(resultOf<{ items: unknown[] }>(await fx.call('GET', '/merchants')).items).toHaveLength(before);
      // An escaped backslash followed by u0000 is no NUL character: accepted as text.
      const shop = resultOf<{ name: string }>(
        await fx.call('POST', '/merchants', { body: '{"name":"Back\\\\u0000slash"}' }),
        201,
      );
      expect(shop.name).toBe('Back\\u0000slash');
    } finally {
      await fx.close();
    }
  });
});

describe('merchant API', () => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true });
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());
  const C = '/api/v1/cp/psp/hosted-pay';
  const body = { amount: '10', currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'ETH' }] };
  const count = async () =>
    Number(
      (
        await fx.services.store.db
          .selectFrom('checkouts')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('checkout create with a malformed Idempotency-Key: 400 INVALID_HEADER, no checkout', async () => {
    const before = await count();
    const res = await checkoutCall(fx, fx.demo, 'POST', C, body, { 'idempotency-key': 'not valid!' });
    expect([res.statusCode, res.json().error.code]).toEqual([400, 'INVALID_HEADER']);
    expect(res.json().error.details).toEqual({ header: 'idempotency-key' });
    expect(await count()).toBe(before);
  });

  it('a NUL character nested in metadata: 400 INVALID_BODY naming `metadata.note`, no checkout', async () => {
    const before = await count();
    const res = await checkoutCall(fx, fx.demo, 'POST', C, JSON.stringify({ ...body, metadata: { note: 'a\u0000b' } }));
    expect([res.statusCode, res.json().error.code]).toEqual([400, 'INVALID_BODY']);
    expect(res.json().message).toContain('`metadata.note`');
    expect(await count()).toBe(before);
    const ok = await checkoutCall(fx, fx.demo, 'POST', C, { ...body, metadata: { note: 'ab' } });
    expect(ok.statusCode).toBe(201);
    expect(await count()).toBe(before + 1);
  });
});
