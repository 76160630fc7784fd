import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCOPES, SCOPES } from '@hostpay/protocol';
import { adminCaller, OPERATOR_TOKENS } from '../http-helpers/admin-fixture.js';
import { checkoutCall, resultOf } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture, type TestKey } from '../http-helpers/fixture.js';
import { expectError } from '../http-helpers/requests.js';
import { balances, ctx, ETH_ADDRESS, eventsOf, TRON_ADDRESS } from './world.js';
import { describeStores } from '../helpers.js';

/**
 * The payout routes over HTTP (both stores, sandbox): a stolen key's attempts all refused with
 * nothing frozen, addresses checked per chain, idempotent POSTs, the manual sender's workflow
 * and the sandbox simulation.
 */
describeStores('payouts over HTTP', (dialect) => {
  let fx: HttpFixture;
  let key: TestKey;
  let other: TestKey;
  let walletId: string;
  let otherWalletId: string;
  const admin = adminCaller(() => fx.app);
  const P = '/api/v1/cp/payouts';
  const D = '/api/v1/cp/payout-destinations';

  async function merchantWithWallet(name: string): Promise<{ key: TestKey; walletId: string }> {
    const merchantId = await fx.createMerchant(name);
    const k = await fx.createKey(merchantId, { scopes: [...SCOPES] });
    const w = (await fx.services.admin.createWallet({ merchantId, asset: 'USDT', chain: 'TRON' }, ctx)).id;
    await fx.services.admin.post({ walletId: w, kind: 'credit', amount: '100' }, ctx);
    return { key: k, walletId: w };
  }

  /** The book's live entry for the address (201 when added now, 200 when it was there), made active. */
  async function activeDestination(k: TestKey, address = TRON_ADDRESS, chain = 'TRON'): Promise<string> {
    const res = await checkoutCall(fx, k, 'POST', D, { chain, address });
    expect([200, 201], res.body).toContain(res.statusCode);
    const { id, status } = resultOf<{ id: string; status: string }>(res);
    if (status !== 'active')
      expect((await admin('POST', `/payout-destinations/${id}/activate`, { body: {} })).statusCode).toBe(200);
    return id;
  }

  beforeAll(async () => {
    fx = await createFixture({ sandbox: true, adminTokens: OPERATOR_TOKENS }, {}, dialect);
    ({ key, walletId } = await merchantWithWallet('Payer Shop'));
    ({ key: other, walletId: otherWalletId } = await merchantWithWallet('Other Shop'));
  });
  afterAll(() => fx.close());

  describe('scopes', () => {
    it('a key created without scopes has every scope but payouts:write', async () => {
      const created = await fx.services.admin.createApiKey(key.merchantId, {}, ctx);
      expect(created.scopes).toEqual([...DEFAULT_SCOPES]);
      expect(created.scopes).toContain('payouts:read');
      expect(created.scopes).not.toContain('payouts:write');
    });
  });

  describe('a stolen API key', () => {
    it('without payouts:write: 403 SCOPE_MISSING on every write, reads allowed; nothing frozen', async () => {
      const stolen = await fx.createKey(key.merchantId);
      const dst = await activeDestination(key);
      for (const [method, url, body] of [
        ['POST', P, { walletId, amount: '1', destinationId: dst }],
        ['POST', D, { chain: 'TRON', address: TRON_ADDRESS }],
        ['POST', `${P}/po_x/cancel`, {}],
      ] as const)
        expectError(await checkoutCall(fx, stolen, method, url, body), 403, 'SCOPE_MISSING');
      expect((await checkoutCall(fx, stolen, 'GET', P)).statusCode).toBe(200);
      expect(await balances(fx.services, walletId)).toEqual({ amount: '100', frozen: '0' });
    });

    it('a fresh destination during its cooling-off: 422 DESTINATION_NOT_ACTIVE, by id or by address; nothing frozen', async () => {
      const fresh = await checkoutCall(fx, key, 'POST', D, {
        chain: 'TRON',
        address: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8',
      });
      expect(resultOf(fresh)).toMatchObject({ status: 'cooling_off' });
      const id = resultOf<{ id: string }>(fresh).id;
      const refused = await checkoutCall(fx, key, 'POST', P, { walletId, amount: '1', destinationId: id });
      expect(expectError(refused, 422, 'DESTINATION_NOT_ACTIVE').error.details).toMatchObject({
        status: 'cooling_off',
      });
      expectError(
        await checkoutCall(fx, key, 'POST', P, {
          walletId,
          amount: '1',
          destination: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8',
        }),
        422,
        'DESTINATION_NOT_ACTIVE',
      );
      // An address that is not in the book at all.
      expectError(
        await checkoutCall(fx, key, 'POST', P, {
          walletId,
          amount: '1',
          destination: 'TVj7RNVHy6thbM7BWdSe9G6gXwKhjhdNZS',
        }),
        404,
        'NOT_FOUND',
      );
      expect(await balances(fx.services, walletId)).toEqual({ amount: '100', frozen: '0' });
    });

    it("another merchant's destination, wallet or payout: 404, nothing frozen or changed", async () => {
      const theirs = await activeDestination(other);
      expectError(
        await checkoutCall(fx, key, 'POST', P, { walletId, amount: '1', destinationId: theirs }),
        404,
        'NOT_FOUND',
      );
      const mine = await activeDestination(key);
      expectError(
        await checkoutCall(fx, key, 'POST', P, { walletId: otherWalletId, amount: '1', destinationId: mine }),
        404,
        'NOT_FOUND',
      );
      const their = await checkoutCall(fx, other, 'POST', P, {
        walletId: otherWalletId,
        amount: '5',
        destinationId: theirs,
      });
      const theirId = resultOf<{ id: string }>(their).id;
      expectError(await checkoutCall(fx, key, 'GET', `${P}/${theirId}`), 404, 'NOT_FOUND');
      expectError(await checkoutCall(fx, key, 'POST', `${P}/${theirId}/cancel`, {}), 404, 'NOT_FOUND');
      expectError(await checkoutCall(fx, key, 'DELETE', `${D}/${theirs}`), 404, 'NOT_FOUND');
      expect(await balances(fx.services, walletId)).toEqual({ amount: '100', frozen: '0' });
      expect(await balances(fx.services, otherWalletId)).toEqual({ amount: '100', frozen: '5' });
      expect(resultOf(await checkoutCall(fx, other, 'GET', `${P}/${theirId}`))).toMatchObject({
        status: 'pending_approval',
      });
    });
  });

  describe('addresses are checked per chain: 400 INVALID_ADDRESS', () => {
    const cases: [string, string, string][] = [
      ['BTC', 'bech32 checksum wrong', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'],
      ['BTC', 'testnet prefix on mainnet', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
      [
        'BTC',
        'v1 in bech32 (not bech32m)',
        'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx',
      ],
      ['BTC', 'base58 checksum wrong', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3'],
      ['ETH', 'bad EIP-55', '0xdAC17F958D2ee523a2206206994597C13D831Ec7'],
      ['ETH', 'too short', '0xdAC17F958D2ee523a2206206994597C13D831e'],
      ['TRON', 'bad checksum', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
      ['TRON', 'an EVM address', ETH_ADDRESS],
    ];
    for (const [chain, what, address] of cases)
      it(`${chain}: ${what}`, async () => {
        const res = await checkoutCall(fx, key, 'POST', D, { chain, address });
        expect(expectError(res, 400, 'INVALID_ADDRESS').error.details).toEqual({ chain });
      });

    const valid: [string, string, string][] = [
      ['BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
      ['BTC', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
      [
        'BTC',
        'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
        'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      ],
      ['BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
      ['BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
      ['ETH', ETH_ADDRESS.toLowerCase(), ETH_ADDRESS],
      ['ETH', ETH_ADDRESS, ETH_ADDRESS],
      ['TRON', TRON_ADDRESS, TRON_ADDRESS],
    ];
    for (const [chain, address, stored] of valid)
      it(`${chain}: accepts ${address}`, async () => {
        const res = await checkoutCall(fx, key, 'POST', D, { chain, address, label: 'cold' });
        // 200 when an earlier case (another spelling, or another test) already put it in the book.
        expect([200, 201], res.body).toContain(res.statusCode);
        expect(resultOf(res)).toMatchObject({ chain, address: stored });
      });
  });

  describe('requests over HTTP', () => {
    it('201 with the payout; the same Idempotency-Key replays it and freezes once', async () => {
      const dst = await activeDestination(key);
      const before = await balances(fx.services, walletId);
      const body = { walletId, amount: 2.5, destinationId: dst, reference: 'inv-7' };
      const headers = { 'idempotency-key': 'po-replay-1' };
      const first = await checkoutCall(fx, key, 'POST', P, body, headers);
      expect(first.statusCode, first.body).toBe(201);
      const again = await checkoutCall(fx, key, 'POST', P, body, headers);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toBe(first.body);
      expect(resultOf(first)).toMatchObject({
        amount: '2.5',
        total: '2.5',
        reference: 'inv-7',
        status: 'pending_approval',
      });
      expect(await balances(fx.services, walletId)).toEqual({
        amount: before.amount,
        frozen: String(Number(before.frozen) + 2.5),
      });
      expectError(await checkoutCall(fx, key, 'POST', P, { ...body, amount: 3 }, headers), 409, 'IDEMPOTENCY_CONFLICT');
      const canceled = await checkoutCall(fx, key, 'POST', `${P}/${resultOf<{ id: string }>(first).id}/cancel`, {});
      expect(resultOf(canceled)).toMatchObject({ status: 'canceled' });
      expect(await balances(fx.services, walletId)).toEqual(before);
    });

    it('lists newest first with nextCursor; PAYOUT_LIMIT over HTTP', async () => {
      const dst = await activeDestination(key);
      await admin('PATCH', `/merchants/${key.merchantId}`, { body: { payoutDailyLimit: { USDT: '3' } } });
      const a = await checkoutCall(fx, key, 'POST', P, { walletId, amount: '1', destinationId: dst });
      expect(a.statusCode).toBe(201);
      expectError(
        await checkoutCall(fx, key, 'POST', P, { walletId, amount: '2.000001', destinationId: dst }),
        422,
        'PAYOUT_LIMIT',
      );
      await admin('PATCH', `/merchants/${key.merchantId}`, { body: { payoutDailyLimit: {} } });
      const list = await checkoutCall(fx, key, 'GET', `${P}?limit=1`);
      const parsed = JSON.parse(list.body) as { result: { id: string }[]; nextCursor: string | null };
      expect(parsed.result.map((p) => p.id)).toEqual([resultOf<{ id: string }>(a).id]);
      expect(parsed.nextCursor).not.toBeNull();
    });

    it('the manual sender: export, sent with a txHash, complete; events for every move', async () => {
      const dst = await activeDestination(key);
      const po = resultOf<{ id: string }>(
        await checkoutCall(fx, key, 'POST', P, { walletId, amount: '4', destinationId: dst, reference: 'a,b' }),
      );
      expect((await admin('POST', `/payouts/${po.id}/approve`, { body: {} })).statusCode).toBe(200);
      const exported = resultOf<{ csv: string; items: { id: string }[] }>(
        await admin('GET', '/payouts/export?format=csv&chain=TRON'),
      );
      expect(exported.items.map((i) => i.id)).toContain(po.id);
      expect(exported.csv.split('\n')[0]).toBe(
        'id,merchantId,chain,network,asset,contract,amount,networkFee,destination,reference,refundOf,createdAt',
      );
      expect(exported.csv).toContain(`${po.id},${key.merchantId},TRON,`);
      expect(exported.csv).toContain(',"a,b",');
      const sent = await admin('POST', `/payouts/${po.id}/sent`, { body: { txHash: 'abc123' } });
      expect(resultOf(sent)).toMatchObject({
        status: 'sent',
        txHash: 'abc123',
        merchantId: key.merchantId,
        merchant: { id: key.merchantId, name: 'Payer Shop' },
      });
      const before = await balances(fx.services, walletId);
      const done = await admin('POST', `/payouts/${po.id}/complete`, { body: {} });
      expect(resultOf(done)).toMatchObject({ status: 'completed' });
      const after = await balances(fx.services, walletId);
      expect(Number(after.amount)).toBe(Number(before.amount) - 4);
      expect(Number(after.frozen)).toBe(Number(before.frozen) - 4);
      const types = (await eventsOf(fx.services, key.merchantId))
        .filter((e) => e.object.id === po.id || e.object.payoutId === po.id)
        .map((e) => (e.type === 'wallet.balance_changed' ? `balance:${String(e.object.kind)}` : e.type));
      expect(types).toEqual([
        'balance:freeze',
        'payout.requested',
        'payout.approved',
        'payout.sent',
        'balance:unfreeze',
        'balance:debit',
        'payout.completed',
      ]);
      const list = resultOf<{ items: { id: string; merchant: { id: string; name: string } }[] }>(
        await admin('GET', `/payouts?status=completed&merchantId=${key.merchantId}&chain=TRON`),
      );
      expect(list.items.map((i) => i.id)).toContain(po.id);
      for (const i of list.items) expect(i.merchant).toEqual({ id: key.merchantId, name: 'Payer Shop' });
    });

    it('sandbox simulate: approved → sent → completed or failed; 409 before approval', async () => {
      const dst = await activeDestination(key);
      await admin('PATCH', `/merchants/${key.merchantId}`, { body: { payoutAutoApproveLimit: '1' } });
      const create = async () =>
        resultOf<{ id: string; status: string }>(
          await checkoutCall(fx, key, 'POST', P, { walletId, amount: '1', destinationId: dst }),
        );
      const a = await create();
      expect(a.status).toBe('approved');
      const done = await checkoutCall(fx, key, 'POST', `${P}/${a.id}/simulate`, { outcome: 'completed' });
      expect(
        resultOf<{ timeline: { status: string; by: string }[] }>(done).timeline.map((t) => `${t.status}:${t.by}`),
      ).toEqual(['approved:merchant', 'sent:system', 'completed:system']);
      const b = await create();
      expect(
        resultOf(await checkoutCall(fx, key, 'POST', `${P}/${b.id}/simulate`, { outcome: 'failed' })),
      ).toMatchObject({
        status: 'failed',
      });
      await admin('PATCH', `/merchants/${key.merchantId}`, { body: { payoutAutoApproveLimit: '0' } });
      const c = await create();
      expectError(
        await checkoutCall(fx, key, 'POST', `${P}/${c.id}/simulate`, { outcome: 'failed' }),
        409,
        'PAYOUT_STATE_CONFLICT',
      );
      await checkoutCall(fx, key, 'POST', `${P}/${c.id}/cancel`, {});
    });

    it('revoking a destination: paying it is 422 DESTINATION_NOT_ACTIVE (by id or address); a second revoke is 409', async () => {
      // An address of its own: the book's other entries for TRON_ADDRESS stay live.
      const address = 'TAcWbsKJryUGAGqHSJWa8bhgZQJtkvCaGd';
      const dst = await activeDestination(key, address);
      expect(resultOf(await checkoutCall(fx, key, 'DELETE', `${D}/${dst}`))).toMatchObject({ status: 'revoked' });
      expectError(await checkoutCall(fx, key, 'DELETE', `${D}/${dst}`), 409, 'PAYOUT_STATE_CONFLICT');
      const before = await balances(fx.services, walletId);
      for (const target of [{ destinationId: dst }, { destination: address }]) {
        const res = await checkoutCall(fx, key, 'POST', P, { walletId, amount: '1', ...target });
        expect(expectError(res, 422, 'DESTINATION_NOT_ACTIVE').error.details).toMatchObject({
          destinationId: dst,
          status: 'revoked',
        });
      }
      expect(await balances(fx.services, walletId)).toEqual(before);
      // Another merchant's revoked destination stays 404: its id is not revealed.
      const other = await merchantWithWallet('Revoked Elsewhere');
      const theirs = await activeDestination(other.key);
      await checkoutCall(fx, other.key, 'DELETE', `${D}/${theirs}`);
      expectError(
        await checkoutCall(fx, key, 'POST', P, { walletId, amount: '1', destinationId: theirs }),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('destination events', () => {
    it('added (cooling_off, activeFrom = now + cooling-off), activated by an operator (audited), revoked', async () => {
      const m = await merchantWithWallet('Events Shop');
      const created = resultOf<{ id: string; status: string; activeFrom: string; createdAt: string }>(
        await checkoutCall(fx, m.key, 'POST', D, { chain: 'ETH', address: ETH_ADDRESS }),
      );
      expect(created.status).toBe('cooling_off');
      expect(Date.parse(created.activeFrom) - Date.parse(created.createdAt)).toBe(24 * 3600 * 1000);
      await admin('POST', `/payout-destinations/${created.id}/activate`, { body: {} });
      await checkoutCall(fx, m.key, 'DELETE', `${D}/${created.id}`);
      const events = (await eventsOf(fx.services, m.key.merchantId)).filter((e) =>
        e.type.startsWith('payout_destination.'),
      );
      expect(events.map((e) => [e.type, e.object.status])).toEqual([
        ['payout_destination.added', 'cooling_off'],
        ['payout_destination.activated', 'active'],
        ['payout_destination.revoked', 'revoked'],
      ]);
      const audit = await fx.services.store.db
        .selectFrom('audit_log')
        .select('action')
        .where('object_id', '=', created.id)
        .execute();
      expect(audit.map((a) => a.action)).toEqual(['payout_destination.activate']);
    });

    it('with a cooling-off of 0 hours a new destination is active at once', async () => {
      const m = await merchantWithWallet('Instant Shop');
      await admin('PATCH', `/merchants/${m.key.merchantId}`, { body: { payoutCoolingOffHours: 0 } });
      const created = await checkoutCall(fx, m.key, 'POST', D, { chain: 'TRON', address: TRON_ADDRESS });
      expect(resultOf(created)).toMatchObject({ status: 'active' });
      const merchant = resultOf<Record<string, unknown>>(await admin('GET', `/merchants/${m.key.merchantId}`));
      expect(merchant).toMatchObject({ payoutCoolingOffHours: '0', payoutAutoApproveLimit: '0', payoutDailyLimit: {} });
      expect(
        (await admin('PATCH', `/merchants/${m.key.merchantId}`, { body: { payoutCoolingOffHours: 169 } })).statusCode,
      ).toBe(400);
    });
  });

  describe('outside a sandbox', () => {
    it('simulate is 404', async () => {
      const plainFx = await createFixture({ sandbox: false }, {}, dialect);
      try {
        const k = await plainFx.createKey(plainFx.demo.merchantId, { scopes: [...SCOPES] });
        expectError(
          await checkoutCall(plainFx, k, 'POST', `${P}/po_x/simulate`, { outcome: 'completed' }),
          404,
          'NOT_FOUND',
        );
      } finally {
        await plainFx.close();
      }
    });
  });
});
