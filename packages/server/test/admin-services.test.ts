import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Services } from '../src/services.js';
import { DIALECTS, tempServices, type Dialect } from './helpers.js';

const ctx = { operator: 'ops-alice', requestId: 'req_test' };
describe.each(DIALECTS)('on %s', (dialect: Dialect) => {
  let env: Awaited<ReturnType<typeof tempServices>>;
  let admin: Services['admin'];

  beforeEach(async () => {
    env = await tempServices(dialect);
    admin = env.services.admin;
  });
  afterEach(() => env.cleanup());

  describe('audit log', () => {
    it('records who, what and before/after for every kind of write, never a secret', async () => {
      const m = await admin.createMerchant('Shop', ctx);
      await admin.updateMerchant(m.id, { name: 'Shop 2' }, ctx);
      await admin.updateMerchant(m.id, { status: 'suspended' }, ctx);
      await admin.updateMerchant(m.id, { status: 'active' }, ctx);
      const key = await admin.createApiKey(m.id, { scopes: ['wallets:read'] }, ctx);
      await admin.updateApiKey(key.apiKey, { ipAllowList: ['10.0.0.0/8'] }, ctx);
      const rotated = await admin.rotateApiKey(key.apiKey, undefined, ctx);
      await admin.revokeApiKey(rotated.new.apiKey, ctx);
      const other = await admin.createMerchant('Sub', ctx);
      await admin.grantMerchant(key.apiKey, other.id, ctx);
      await admin.revokeGrant(key.apiKey, other.id, ctx);
      const w = await admin.createWallet({ merchantId: m.id, asset: 'USDT', chain: 'TRON' }, ctx);
      await admin.setWalletActive(w.id, false, ctx);
      await admin.post({ walletId: w.id, kind: 'credit', amount: '5' }, ctx);
      const fee = await admin.setFee({ currency: 'USDT', isPercentage: true, value: '1' }, ctx);
      await admin.deleteFeeTier(fee.id, ctx);
      await admin.setRate({ base: 'EUR', quote: 'USDT', rate: '1.1' }, ctx);
      await admin.setSettlementCurrency({ currency: 'EUR', settlementCurrency: 'USDT' }, ctx);

      const all = await admin.listAudit({}, { limit: 200 });
      expect(all.items.map((e) => e.action)).toEqual([
        'merchant.create',
        'merchant.update',
        'merchant.suspend',
        'merchant.resume',
        'api_key.create',
        'api_key.update',
        'api_key.create',
        'api_key.rotate',
        'api_key.revoke',
        'merchant.create',
        'api_key.grant',
        'api_key.ungrant',
        'wallet.create',
        'wallet.deactivate',
        'wallet.credit',
        'fee.set',
        'fee.delete',
        'rate.set',
        'settlement.set',
      ]);
      expect(all.items.every((e) => e.operator === 'ops-alice' && e.requestId === 'req_test')).toBe(true);
      const text = JSON.stringify(all.items);
      expect(text).not.toContain(key.apiSecret);
      expect(text).not.toContain(rotated.new.apiSecret);
      expect(text).not.toMatch(/sk_|secret/i);
      const rename = all.items[1]!;
      expect(rename.before).toMatchObject({ name: 'Shop' });
      expect(rename.after).toMatchObject({ name: 'Shop 2' });
    });

    it('filters by object and paginates with a cursor', async () => {
      const m = await admin.createMerchant('A', ctx);
      for (let i = 0; i < 5; i++) await admin.updateMerchant(m.id, { name: `A${i}` }, ctx);
      await admin.createMerchant('B', ctx);
      const first = await admin.listAudit({ objectId: m.id }, { limit: 4 });
      expect(first.items).toHaveLength(4);
      expect(first.nextCursor).not.toBeNull();
      const second = await admin.listAudit({ objectId: m.id }, { limit: 4, cursor: first.nextCursor! });
      expect(second.items.map((e) => e.after)).toEqual([
        { ...(second.items[0]!.after as object), name: 'A3' },
        { ...(second.items[1]!.after as object), name: 'A4' },
      ]);
      expect(second.nextCursor).toBeNull();
      await expect(admin.listAudit({}, { cursor: 'garbage' })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
      const wellFormedNonsense = Buffer.from(JSON.stringify(['x', 'y'])).toString('base64url');
      await expect(admin.listAudit({}, { cursor: wellFormedNonsense })).rejects.toMatchObject({
        code: 'INVALID_QUERY',
      });
    });

    it('keeps amounts in snapshots exact', async () => {
      await admin.setRate({ base: 'ETH', quote: 'USDT', rate: '3456.123456789012345678' }, ctx);
      const [entry] = (await admin.listAudit({ action: 'rate.set' }, {})).items;
      expect(String((entry!.after as { rate: unknown }).rate)).toBe('3456.123456789012345678');
    });

    it('a failed write records nothing', async () => {
      const m = await admin.createMerchant('A', ctx);
      const w = await admin.createWallet({ merchantId: m.id, asset: 'BTC', chain: 'BTC' }, ctx);
      await expect(admin.post({ walletId: w.id, kind: 'debit', amount: '1' }, ctx)).rejects.toMatchObject({
        code: 'INSUFFICIENT_FUNDS',
      });
      const entries = await admin.listAudit({ objectId: w.id }, {});
      expect(entries.items.map((e) => e.action)).toEqual(['wallet.create']);
    });
  });

  describe('key lifecycle', () => {
    it('rotation keeps the old key until the overlap ends and copies settings and grants', async () => {
      const m = await admin.createMerchant('A', ctx);
      const sub = await admin.createMerchant('Sub', ctx);
      const key = await admin.createApiKey(
        m.id,
        { scopes: ['fees:read'], rateLimitPerMinute: 5, ipAllowList: ['2001:db8::/32'] },
        ctx,
      );
      await admin.grantMerchant(key.apiKey, sub.id, ctx);
      const until = new Date(Date.now() + 3_600_000).toISOString();
      const { old, new: fresh } = await admin.rotateApiKey(key.apiKey, until, ctx);
      expect(old).toMatchObject({ status: 'active', expiresAt: until, rotatedTo: fresh.apiKey });
      expect(fresh).toMatchObject({
        scopes: ['fees:read'],
        rateLimitPerMinute: 5,
        ipAllowList: ['2001:db8::/32'],
        expiresAt: null,
      });
      expect(fresh.apiSecret).not.toBe(key.apiSecret);
      expect(await admin.listGrants(fresh.apiKey)).toEqual([{ merchantId: sub.id, createdAt: expect.any(String) }]);
      // Both keys authenticate during the overlap: the merchant services see both secrets.
      expect((await env.services.merchant.findApiKey(key.apiKey))?.secret.toString()).toBe(key.apiSecret);
      expect((await env.services.merchant.findApiKey(fresh.apiKey))?.secret.toString()).toBe(fresh.apiSecret);
    });

    it('a grant does not open a suspended sub-merchant', async () => {
      const platform = await admin.createMerchant('Platform', ctx);
      const sub = await admin.createMerchant('Sub', ctx);
      const key = await admin.createApiKey(platform.id, {}, ctx);
      await admin.grantMerchant(key.apiKey, sub.id, ctx);
      expect(await env.services.merchant.canActFor(key.apiKey, platform.id, sub.id)).toBe(true);
      await admin.updateMerchant(sub.id, { status: 'suspended' }, ctx);
      expect(await env.services.merchant.canActFor(key.apiKey, platform.id, sub.id)).toBe(false);
    });

    it('validates settings with messages that say what to fix', async () => {
      const m = await admin.createMerchant('A', ctx);
      await expect(admin.createApiKey(m.id, { scopes: ['wallets:write'] }, ctx)).rejects.toThrow(/wallets:write/);
      await expect(admin.createApiKey(m.id, { ipAllowList: ['10.0.0.0/33'] }, ctx)).rejects.toThrow(/10.0.0.0\/33/);
      await expect(admin.createApiKey(m.id, { rateLimitPerMinute: 0 }, ctx)).rejects.toMatchObject({
        code: 'INVALID_BODY',
      });
      await expect(admin.createApiKey('mer_nope', {}, ctx)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('a revoked or suspended state is visible to authentication at once', async () => {
      const m = await admin.createMerchant('A', ctx);
      const key = await admin.createApiKey(m.id, {}, ctx);
      expect((await env.services.merchant.findApiKey(key.apiKey))?.status).toBe('active');
      await admin.updateMerchant(m.id, { status: 'suspended' }, ctx);
      expect((await env.services.merchant.findApiKey(key.apiKey))?.merchantStatus).toBe('suspended');
      await admin.revokeApiKey(key.apiKey, ctx);
      expect((await env.services.merchant.findApiKey(key.apiKey))?.status).toBe('revoked');
    });
  });

  describe('master key rotation', () => {
    it('re-seals every secret under the new key, keeping every key and the token key usable', async () => {
      const m = await admin.createMerchant('A', ctx);
      const keys = [await admin.createApiKey(m.id, {}, ctx), await admin.createApiKey(m.id, {}, ctx)];
      const tokenKey = env.services.merchant.tokenSigningKey;
      const oldMaster = (await import('node:fs')).readFileSync(`${env.dataDir}/master.key`, 'utf8').trim();
      const newMaster = randomBytes(32).toString('base64');
      await env.services.close();

      const rotated = await env.reopen({ masterKey: newMaster, masterKeyPrevious: oldMaster });
      expect(await rotated.admin.rotateMasterKey(ctx)).toEqual({ resealed: 3, alreadyCurrent: 0 });
      expect(await rotated.admin.rotateMasterKey(ctx)).toEqual({ resealed: 0, alreadyCurrent: 3 });
      await rotated.close();

      // Only the new key from now on: everything still opens, the token signing key is unchanged.
      env.services = await env.reopen({ masterKey: newMaster });
      for (const k of keys)
        expect((await env.services.merchant.findApiKey(k.apiKey))?.secret.toString()).toBe(k.apiSecret);
      expect(env.services.merchant.tokenSigningKey.equals(tokenKey)).toBe(true);
      // And the old key alone no longer opens them.
      await expect(env.reopen({ masterKey: oldMaster })).rejects.toThrow(/not configured/);
    });
  });

  describe('wallets and postings', () => {
    it('lists by filter and shows each posting with the balance after it', async () => {
      const m = await admin.createMerchant('A', ctx);
      const usdt = await admin.createWallet({ merchantId: m.id, asset: 'USDT', chain: 'TRON' }, ctx);
      await admin.createWallet({ merchantId: m.id, asset: 'BTC', chain: 'BTC', active: false }, ctx);
      await expect(admin.createWallet({ merchantId: m.id, asset: 'BTC', chain: 'TRON' }, ctx)).rejects.toMatchObject({
        code: 'UNSUPPORTED_CURRENCY',
      });
      await expect(admin.createWallet({ merchantId: m.id, asset: 'USDT', chain: 'TRON' }, ctx)).rejects.toMatchObject({
        code: 'IDEMPOTENCY_CONFLICT',
      });
      expect((await admin.listWallets({ merchantId: m.id, active: false })).items.map((w) => w.asset)).toEqual(['BTC']);
      expect((await admin.listWallets({ asset: 'usdt' })).items.map((w) => w.id)).toEqual([usdt.id]);
      for (const [kind, amount] of [
        ['credit', '10'],
        ['freeze', '3'],
        ['debit', '2.5'],
        ['unfreeze', '1'],
      ] as const) {
        await admin.post({ walletId: usdt.id, kind, amount }, ctx);
      }
      const page1 = await admin.listPostings(usdt.id, { limit: 3 });
      const page2 = await admin.listPostings(usdt.id, { limit: 3, cursor: page1.nextCursor! });
      const after = [...page1.items, ...page2.items].map((p) => [
        p.kind,
        String(p.amountAfter),
        String(p.freezeAmountAfter),
      ]);
      expect(after).toEqual([
        ['credit', '10', '0'],
        ['freeze', '10', '3'],
        ['debit', '7.5', '3'],
        ['unfreeze', '7.5', '2'],
      ]);
      expect((await admin.assetNetworks('USDT')).map((n) => n.name).sort()).toEqual(['ERC20', 'TRC20']);
    });
  });
});
