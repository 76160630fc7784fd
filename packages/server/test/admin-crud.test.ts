import { parseExactJson } from '@hostpay/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, type Dialect } from './helpers.js';
import { BOB, createAdminFixture, errorOf, resultOf, type AdminFixture } from './http-helpers/admin-fixture.js';

/** The admin API's resources end to end over HTTP, on every store dialect. */
describe.each(DIALECTS)('admin API on %s', (dialect: Dialect) => {
  let fx: AdminFixture;
  beforeEach(async () => {
    fx = await createAdminFixture(dialect);
  });
  afterEach(() => fx.close());
  const call: AdminFixture['call'] = (...args) => fx.call(...args);
  const newMerchant = async (name = 'Shop') =>
    resultOf<{ id: string }>(await call('POST', '/merchants', { body: { name } }), 201).id;

  it('merchants: create, read, list by pages, rename, suspend, resume', async () => {
    const created = resultOf(await call('POST', '/merchants', { body: { name: '  Corner Shop ' } }), 201);
    expect(created).toMatchObject({ name: 'Corner Shop', status: 'active' });
    expect(created.id).toMatch(/^mer_/);
    expect(resultOf(await call('GET', `/merchants/${created.id}`))).toEqual(created);
    for (const name of ['B', 'C']) await newMerchant(name);

    const first = resultOf(await call('GET', '/merchants?limit=2'));
    expect(first.items.map((m: { name: string }) => m.name)).toEqual(['Corner Shop', 'B']);
    const second = resultOf(await call('GET', `/merchants?limit=2&cursor=${first.nextCursor}`));
    expect(second).toMatchObject({ items: [{ name: 'C' }], nextCursor: null });

    expect(resultOf(await call('PATCH', `/merchants/${created.id}`, { body: { name: 'Renamed' } }))).toMatchObject({
      name: 'Renamed',
    });
    expect(resultOf(await call('POST', `/merchants/${created.id}/suspend`))).toMatchObject({ status: 'suspended' });
    expect(resultOf(await call('GET', '/merchants?status=suspended')).items).toHaveLength(1);
    expect(resultOf(await call('POST', `/merchants/${created.id}/resume`, { body: {} }))).toMatchObject({
      status: 'active',
    });

    errorOf(await call('GET', '/merchants/mer_nobody'), 404, 'NOT_FOUND');
    errorOf(await call('PATCH', '/merchants/mer_nobody', { body: { name: 'x' } }), 404, 'NOT_FOUND');
    errorOf(await call('POST', '/merchants/mer_nobody/suspend'), 404, 'NOT_FOUND');
    errorOf(await call('POST', '/merchants', { body: { name: '' } }), 400, 'INVALID_BODY');
    errorOf(await call('POST', '/merchants', { body: { name: '   ' } }), 400, 'INVALID_BODY');
    errorOf(await call('POST', '/merchants', { body: { name: 'x', status: 'active' } }), 400, 'INVALID_BODY');
    errorOf(await call('PATCH', `/merchants/${created.id}`, { body: {} }), 400, 'INVALID_BODY');
    errorOf(await call('POST', `/merchants/${created.id}/suspend`, { body: { reason: 'x' } }), 400, 'INVALID_BODY');
    errorOf(await call('GET', '/merchants?limit=0'), 400, 'INVALID_QUERY');
    errorOf(await call('GET', '/merchants?limit=201'), 400, 'INVALID_QUERY');
    errorOf(await call('GET', '/merchants?cursor=garbage'), 400, 'INVALID_QUERY');
    errorOf(await call('GET', '/merchants?page=2'), 400, 'INVALID_QUERY');
  });

  it('keys: the secret once at creation, never on reads; settings, revocation, rotation, grants', async () => {
    const merchantId = await newMerchant();
    const res = await call('POST', `/merchants/${merchantId}/keys`, {
      body: { scopes: ['wallets:read'], label: 'backend' },
    });
    const key = resultOf(res, 201);
    expect(key).toMatchObject({
      merchantId,
      scopes: ['wallets:read'],
      label: 'backend',
      status: 'active',
      ipAllowList: null,
    });
    expect(key.apiKey).toBe(key.id);
    expect(key.apiSecret).toMatch(/^sk_/);

    const read = await call('GET', `/keys/${key.id}`);
    expect(read.body).not.toContain(key.apiSecret);
    expect(resultOf(read)).not.toHaveProperty('apiSecret');
    const list = await call('GET', `/keys?merchantId=${merchantId}&status=active`);
    expect(list.body).not.toContain(key.apiSecret);
    expect(resultOf(list).items.map((k: { id: string }) => k.id)).toEqual([key.id]);

    const patched = resultOf(
      await call('PATCH', `/keys/${key.id}`, {
        body: {
          scopes: ['wallets:read', 'fees:read'],
          expiresAt: '2099-01-01T00:00:00Z',
          ipAllowList: ['10.0.0.0/8'],
          rateLimitPerMinute: 5,
          label: null,
        },
      }),
    );
    expect(patched).toMatchObject({
      scopes: ['wallets:read', 'fees:read'],
      expiresAt: '2099-01-01T00:00:00.000Z',
      ipAllowList: ['10.0.0.0/8'],
      rateLimitPerMinute: 5,
      label: null,
    });
    errorOf(await call('PATCH', `/keys/${key.id}`, { body: { scopes: ['admin'] } }), 400, 'INVALID_BODY');
    errorOf(await call('PATCH', `/keys/${key.id}`, { body: { ipAllowList: ['10.0.0.0/33'] } }), 400, 'INVALID_BODY');
    errorOf(await call('PATCH', `/keys/${key.id}`, { body: { rateLimitPerMinute: '5' } }), 400, 'INVALID_BODY');
    errorOf(await call('PATCH', `/keys/${key.id}`, { body: { expiresAt: 'soon' } }), 400, 'INVALID_BODY');
    errorOf(await call('PATCH', '/keys/hp_nobody', { body: { label: 'x' } }), 404, 'NOT_FOUND');

    const sub = await newMerchant('Sub');
    expect(resultOf(await call('POST', `/keys/${key.id}/grants`, { body: { merchantId: sub } }), 201)).toMatchObject({
      keyId: key.id,
      merchantId: sub,
    });
    expect(resultOf(await call('GET', `/keys/${key.id}/grants`))).toMatchObject([{ keyId: key.id, merchantId: sub }]);
    errorOf(await call('POST', `/keys/${key.id}/grants`, { body: { merchantId: 'mer_nobody' } }), 404, 'NOT_FOUND');
    errorOf(await call('GET', '/keys/hp_nobody/grants'), 404, 'NOT_FOUND');

    const rotated = resultOf(
      await call('POST', `/keys/${key.id}/rotate`, {
        body: { overlapUntil: new Date(Date.now() + 3_600_000).toISOString() },
      }),
      201,
    );
    expect(rotated.old).toMatchObject({ id: key.id, rotatedTo: rotated.new.id });
    expect(rotated.old).not.toHaveProperty('apiSecret');
    expect(rotated.new).toMatchObject({
      scopes: ['wallets:read', 'fees:read'],
      ipAllowList: ['10.0.0.0/8'],
      rateLimitPerMinute: 5,
    });
    expect(rotated.new.apiSecret).toMatch(/^sk_/);
    expect(resultOf(await call('GET', `/keys/${rotated.new.id}/grants`))).toMatchObject([{ merchantId: sub }]);
    errorOf(
      await call('POST', `/keys/${key.id}/rotate`, { body: { overlapUntil: '2999-01-01T00:00:00Z' } }),
      400,
      'INVALID_BODY',
    );

    expect(resultOf(await call('DELETE', `/keys/${key.id}/grants/${sub}`))).toEqual({
      keyId: key.id,
      merchantId: sub,
      deleted: true,
    });
    errorOf(await call('DELETE', `/keys/${key.id}/grants/${sub}`), 404, 'NOT_FOUND');

    expect(resultOf(await call('POST', `/keys/${key.id}/revoke`))).toMatchObject({ status: 'revoked' });
    expect(resultOf(await call('GET', '/keys?status=revoked')).items).toHaveLength(1);
    errorOf(await call('POST', `/keys/${key.id}/rotate`), 403, 'KEY_REVOKED');
    errorOf(await call('POST', '/keys/hp_nobody/revoke'), 404, 'NOT_FOUND');
    errorOf(await call('POST', '/merchants/mer_nobody/keys', { body: {} }), 404, 'NOT_FOUND');
  });

  it('wallets and the ledger: exact amounts, 422 writes nothing, a posting key never posts twice', async () => {
    const merchantId = await newMerchant();
    const wallet = resultOf(
      await call('POST', `/merchants/${merchantId}/wallets`, { body: { asset: 'eth', chain: 'ETH' } }),
      201,
    );
    expect(wallet).toMatchObject({
      merchantId,
      asset: 'ETH',
      chain: { symbol: 'ETH' },
      active: true,
      amount: 0,
      freezeAmount: 0,
    });
    errorOf(
      await call('POST', `/merchants/${merchantId}/wallets`, { body: { asset: 'ETH', chain: 'ETH' } }),
      409,
      'IDEMPOTENCY_CONFLICT',
    );
    errorOf(
      await call('POST', `/merchants/${merchantId}/wallets`, { body: { asset: 'BTC', chain: 'TRON' } }),
      422,
      'UNSUPPORTED_CURRENCY',
    );
    errorOf(
      await call('POST', `/merchants/${merchantId}/wallets`, { body: { asset: 'DOGE', chain: 'ETH' } }),
      422,
      'UNSUPPORTED_CURRENCY',
    );
    errorOf(
      await call('POST', '/merchants/mer_nobody/wallets', { body: { asset: 'ETH', chain: 'ETH' } }),
      404,
      'NOT_FOUND',
    );
    const usdt = resultOf(
      await call('POST', `/merchants/${merchantId}/wallets`, { body: { asset: 'USDT', chain: 'TRON', active: false } }),
      201,
    );

    const post = (body: object, key?: string) =>
      call('POST', `/wallets/${wallet.id}/postings`, { body, ...(key ? { idempotencyKey: key } : {}) });
    const credit = await post({ kind: 'credit', amount: '3.141592653589793238', idempotencyKey: 'dep-1' });
    expect(credit.statusCode, credit.body).toBe(201);
    expect(credit.body).toContain('"amountAfter":3.141592653589793238');
    const again = await post({ kind: 'credit', amount: '3.141592653589793238', idempotencyKey: 'dep-1' });
    expect(resultOf(again)).toMatchObject({ replayed: true, posting: { id: resultOf(credit, 201).posting.id } });
    errorOf(await post({ kind: 'debit', amount: '1', idempotencyKey: 'dep-1' }), 409, 'IDEMPOTENCY_CONFLICT');

    const before = await call('GET', `/wallets/${wallet.id}`);
    errorOf(await post({ kind: 'debit', amount: '3.141592653589793239' }), 422, 'INSUFFICIENT_FUNDS');
    errorOf(await post({ kind: 'unfreeze', amount: '0.1' }), 422, 'INSUFFICIENT_FUNDS');
    expect((await call('GET', `/wallets/${wallet.id}`)).body).toBe(before.body);
    resultOf(await post({ kind: 'freeze', amount: '1.000000000000000001' }), 201);
    resultOf(await post({ kind: 'debit', amount: '0.141592653589793237' }), 201);
    const unfreeze = resultOf(await post({ kind: 'unfreeze', amount: '0.5' }, 'hdr-key'), 201);
    expect(unfreeze.posting.idempotencyKey).toBe('hdr-key');
    errorOf(await post({ kind: 'credit', amount: '-1' }), 400, 'INVALID_AMOUNT');
    errorOf(await post({ kind: 'credit', amount: '0.0000000000000000001' }), 400, 'INVALID_AMOUNT');
    errorOf(await post({ kind: 'credit', amount: 5 }), 400, 'INVALID_BODY');
    errorOf(await post({ kind: 'mint', amount: '5' }), 400, 'INVALID_BODY');
    errorOf(
      await call('POST', '/wallets/wal_nobody/postings', { body: { kind: 'credit', amount: '1' } }),
      404,
      'NOT_FOUND',
    );

    const history = await call('GET', `/wallets/${wallet.id}/postings?limit=3`);
    const page = parseExactJson(history.body) as {
      result: { items: { kind: string; amountAfter: string; freezeAmountAfter: string }[]; nextCursor: string };
    };
    expect(page.result.items.map((p) => [p.kind, p.amountAfter, p.freezeAmountAfter])).toEqual([
      ['credit', '3.141592653589793238', '0'],
      ['freeze', '3.141592653589793238', '1.000000000000000001'],
      ['debit', '3.000000000000000001', '1.000000000000000001'],
    ]);
    const rest = resultOf(await call('GET', `/wallets/${wallet.id}/postings?cursor=${page.result.nextCursor}`));
    expect(rest).toMatchObject({ items: [{ kind: 'unfreeze' }], nextCursor: null });
    errorOf(await call('GET', '/wallets/wal_nobody/postings'), 404, 'NOT_FOUND');

    const current = await call('GET', `/wallets/${wallet.id}`);
    expect(current.body).toContain('"amount":3.000000000000000001,"freezeAmount":0.500000000000000001');
    expect(resultOf(await call('POST', `/wallets/${usdt.id}/activate`))).toMatchObject({ active: true });
    expect(resultOf(await call('POST', `/wallets/${wallet.id}/deactivate`))).toMatchObject({ active: false });
    const inactive = resultOf(await call('GET', `/wallets?merchantId=${merchantId}&active=false`));
    expect(inactive.items.map((w: { id: string }) => w.id)).toEqual([wallet.id]);
    expect(
      resultOf(await call('GET', '/wallets?asset=usdt&chain=tron')).items.map((w: { id: string }) => w.id),
    ).toEqual([usdt.id]);
    errorOf(await call('GET', '/wallets?active=yes'), 400, 'INVALID_QUERY');
    errorOf(await call('GET', '/wallets/wal_nobody'), 404, 'NOT_FOUND');
    errorOf(await call('POST', '/wallets/wal_nobody/activate'), 404, 'NOT_FOUND');

    expect(
      resultOf(await call('GET', '/assets/usdt/networks'))
        .map((n: { name: string }) => n.name)
        .sort(),
    ).toEqual(['ERC20', 'TRC20']);
    errorOf(await call('GET', '/assets/DOGE/networks'), 422, 'UNSUPPORTED_CURRENCY');
  });

  it('fees, settlement currencies, rates and the operator preview', async () => {
    const merchantId = await newMerchant();
    const tier = resultOf(
      await call('PUT', '/fees', {
        body: { currency: 'eur', isPercentage: true, value: '2.5', minValue: '0.5', feeCurrency: 'USDT' },
      }),
    );
    expect(tier).toMatchObject({
      merchantId: null,
      currency: 'EUR',
      isPercentage: true,
      value: 2.5,
      minValue: 0.5,
      fromAmount: 0,
    });
    const replaced = resultOf(
      await call('PUT', '/fees', { body: { currency: 'EUR', isPercentage: true, value: '2', minValue: '0.5' } }),
    );
    expect(replaced.id).toBe(tier.id);
    const own = resultOf(
      await call('PUT', '/fees', {
        body: { currency: 'ETH', isPercentage: false, value: '0.000000000000000001', merchantId },
      }),
    );
    const ownText = (await call('GET', `/fees?merchantId=${merchantId}`)).body;
    expect(ownText).toContain('"value":0.000000000000000001');
    expect(resultOf(await call('GET', '/fees?merchantId=default')).map((t: { id: string }) => t.id)).toEqual([tier.id]);
    expect(resultOf(await call('GET', '/fees?currency=eth')).map((t: { id: string }) => t.id)).toEqual([own.id]);
    errorOf(
      await call('PUT', '/fees', { body: { currency: 'USDT', isPercentage: false, value: '0.0000001' } }),
      400,
      'INVALID_AMOUNT',
    );
    errorOf(
      await call('PUT', '/fees', { body: { currency: 'EUR', isPercentage: true, value: '101' } }),
      400,
      'INVALID_AMOUNT',
    );
    errorOf(
      await call('PUT', '/fees', { body: { currency: 'EUR', isPercentage: true, value: '1e3' } }),
      400,
      'INVALID_AMOUNT',
    );
    errorOf(
      await call('PUT', '/fees', { body: { currency: 'EUR', isPercentage: true, value: 1 } }),
      400,
      'INVALID_BODY',
    );
    errorOf(
      await call('PUT', '/fees', { body: { currency: 'DOGE', isPercentage: true, value: '1' } }),
      422,
      'UNSUPPORTED_CURRENCY',
    );
    errorOf(
      await call('PUT', '/fees', {
        body: { currency: 'EUR', isPercentage: true, value: '1', merchantId: 'mer_nobody' },
      }),
      404,
      'NOT_FOUND',
    );

    errorOf(await call('GET', `/fees/preview?merchantId=${merchantId}&currency=EUR&amount=100`), 422, 'NO_RATE');
    const rate = resultOf(
      await call('PUT', '/rates', { body: { base: 'EUR', quote: 'USDT', rate: '1.0842', source: 'ecb' } }),
    );
    expect(rate).toMatchObject({ base: 'EUR', quote: 'USDT', rate: 1.0842, source: 'ecb' });
    expect(resultOf(await call('GET', '/rates'))).toEqual([rate]);
    errorOf(await call('PUT', '/rates', { body: { base: 'EUR', quote: 'EUR', rate: '1' } }), 400, 'INVALID_BODY');
    errorOf(await call('PUT', '/rates', { body: { base: 'EUR', quote: 'USDT', rate: '0' } }), 400, 'INVALID_AMOUNT');

    const preview = resultOf(await call('GET', `/fees/preview?merchantId=${merchantId}&currency=eur&amount=100`));
    expect(preview).toMatchObject({
      originalCurrency: 'EUR',
      currency: 'USDT',
      scheduleSource: 'default',
      rate: 1.0842,
      tier: { fromAmount: 0, toAmount: null },
    });
    expect(resultOf(await call('GET', `/fees/preview?merchantId=${merchantId}&currency=ETH&amount=5`))).toMatchObject({
      scheduleSource: 'merchant',
      isPercentage: false,
    });
    errorOf(await call('GET', `/fees/preview?merchantId=${merchantId}&currency=BTC&amount=5`), 422, 'NO_FEE_SCHEDULE');
    errorOf(await call('GET', `/fees/preview?merchantId=${merchantId}&currency=EUR&amount=-5`), 400, 'INVALID_AMOUNT');
    errorOf(await call('GET', `/fees/preview?merchantId=${merchantId}&currency=E&amount=5`), 400, 'INVALID_CURRENCY');
    errorOf(await call('GET', '/fees/preview?merchantId=mer_nobody&currency=EUR&amount=5'), 404, 'NOT_FOUND');

    const settlement = resultOf(
      await call('PUT', '/settlement-currencies', {
        body: { currency: 'USD', settlementCurrency: 'usdt', merchantId },
      }),
    );
    expect(settlement).toEqual({ merchantId, currency: 'USD', settlementCurrency: 'USDT' });
    expect(resultOf(await call('GET', '/settlement-currencies'))).toMatchObject([
      { merchantId: null, currency: 'EUR', settlementCurrency: 'USDT' },
      { merchantId, currency: 'USD', settlementCurrency: 'USDT' },
    ]);
    errorOf(
      await call('PUT', '/settlement-currencies', { body: { currency: 'USD', settlementCurrency: 'DOGE' } }),
      422,
      'UNSUPPORTED_CURRENCY',
    );

    expect(resultOf(await call('DELETE', `/fees/${own.id}`))).toEqual({ id: own.id, deleted: true });
    errorOf(await call('DELETE', `/fees/${own.id}`), 404, 'NOT_FOUND');
  });

  it('audit: filters and pages over what the operators did', async () => {
    const merchantId = await newMerchant('A');
    await call('PATCH', `/merchants/${merchantId}`, { body: { name: 'A2' } });
    const bobRes = await call('POST', `/merchants/${merchantId}/suspend`, { token: BOB });
    const all = resultOf(await call('GET', `/audit?objectType=merchant&objectId=${merchantId}`));
    expect(all.items.map((e: { action: string; operator: string }) => [e.action, e.operator])).toEqual([
      ['merchant.create', 'alice'],
      ['merchant.update', 'alice'],
      ['merchant.suspend', 'bob'],
    ]);
    expect(all.items[2].requestId).toBe(bobRes.headers['x-request-id']);
    expect(all.items[1]).toMatchObject({ before: { name: 'A' }, after: { name: 'A2' } });
    expect(resultOf(await call('GET', '/audit?operator=bob')).items).toHaveLength(1);
    expect(resultOf(await call('GET', '/audit?action=merchant.update')).items).toHaveLength(1);
    const paged = resultOf(await call('GET', '/audit?limit=2'));
    expect(paged.items).toHaveLength(2);
    expect(resultOf(await call('GET', `/audit?limit=2&cursor=${paged.nextCursor}`)).items).toHaveLength(1);
    expect(
      resultOf(await call('GET', `/audit?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`))
        .items,
    ).toEqual([]);
    expect(resultOf(await call('GET', '/audit?since=2000-01-01T00:00:00Z')).items).toHaveLength(3);
    errorOf(await call('GET', '/audit?since=yesterday'), 400, 'INVALID_QUERY');
  });

  it('idempotency: replay, conflict, and 10 concurrent identical requests make one merchant', async () => {
    const first = await call('POST', '/merchants', { body: { name: 'Once' }, idempotencyKey: 'create-once' });
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const replay = await call('POST', '/merchants', { body: { name: 'Once' }, idempotencyKey: 'create-once' });
    expect(replay.statusCode).toBe(201);
    expect(replay.body).toBe(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    errorOf(
      await call('POST', '/merchants', { body: { name: 'Twice' }, idempotencyKey: 'create-once' }),
      409,
      'IDEMPOTENCY_CONFLICT',
    );

    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call('POST', '/merchants', { body: { name: 'Burst' }, idempotencyKey: 'burst' }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    const burst = resultOf(await call('GET', '/merchants')).items.filter((m: { name: string }) => m.name === 'Burst');
    expect(burst).toHaveLength(1);
    expect(resultOf(await call('GET', `/audit?action=merchant.create&objectId=${burst[0].id}`)).items).toHaveLength(1);
  });
});
