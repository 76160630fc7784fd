import { DEFAULT_SCOPES, SCOPES, type Scope } from '@hostpay/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo/seed.js';
import { HostpayError } from '../../src/errors.js';
import type { KeyUser } from '../../src/features/self-service/keys.js';
import { DIALECTS, tempServices, type TempEnv } from '../helpers.js';

/**
 * The dashboard's settings and self-service keys, as services (the session routes call them),
 * on both stores: what is accepted and refused, what the audit log records as done by the user.
 */
const PNG = `data:image/png;base64,${Buffer.from('\x89PNG fake but base64').toString('base64')}`;
// The developer role (merchant-users/roles.ts, spec/commerce.md "Shared decisions").
const DEVELOPER: Scope[] = SCOPES.filter(
  (s) => s.endsWith(':read') || ['checkout:write', 'webhooks:write', 'links:write', 'invoices:write'].includes(s),
);

async function refused(p: Promise<unknown>, code: string): Promise<HostpayError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e, `expected ${code}`).toBeInstanceOf(HostpayError);
  expect((e as HostpayError).code).toBe(code);
  return e as HostpayError;
}

describe.each(DIALECTS)('self-service on %s', (dialect) => {
  let env: TempEnv;
  let merchantId: string;
  let otherId: string;
  const who = (merchant: () => string, userId = 'usr_test', email = 'owner@shop.example') => ({
    merchantId: merchant(),
    userId,
    email,
    ip: '203.0.113.7',
  });
  const owner0 = () => who(() => merchantId);
  beforeAll(async () => {
    env = await tempServices(dialect, {}, { sandbox: false });
    merchantId = (await seedDemo(env.services, env.dataDir)).merchantId;
    otherId = (await env.services.admin.createMerchant('Other', { operator: 'test' })).id;
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  describe('settings', () => {
    const settings = () => env.services.selfService.settings;

    it('start empty, take every field, clear with null, and are audited as the user', async () => {
      expect(await settings().get(merchantId)).toEqual({
        displayName: null,
        logoUrl: null,
        successUrl: null,
        cancelUrl: null,
        legalName: null,
        address: null,
        taxId: null,
        supportEmail: null,
        invoicePrefix: null,
        emailReceipts: true,
        brandColor: null,
        accentColor: null,
        language: null,
      });
      const set = await settings().update(owner0(), {
        displayName: '  Café <Ünïcode> & Co  ',
        logoUrl: PNG,
        successUrl: 'https://shop.example/thanks',
        cancelUrl: 'https://shop.example/cart',
      });
      expect(set).toEqual({
        displayName: 'Café <Ünïcode> & Co',
        logoUrl: PNG,
        successUrl: 'https://shop.example/thanks',
        cancelUrl: 'https://shop.example/cart',
        legalName: null,
        address: null,
        taxId: null,
        supportEmail: null,
        invoicePrefix: null,
        emailReceipts: true,
        brandColor: null,
        accentColor: null,
        language: null,
      });
      expect(await settings().get(merchantId)).toEqual(set);
      expect(await settings().get(otherId)).toMatchObject({ displayName: null, logoUrl: null });
      const entry = await env.services.store.db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'merchant.settings.update')
        .where('object_id', '=', merchantId)
        .executeTakeFirstOrThrow();
      expect(entry.operator).toBe('dashboard:owner@shop.example');
      const security = await env.services.store.db
        .selectFrom('merchant_security_log')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('action', '=', 'settings.changed')
        .executeTakeFirstOrThrow();
      expect(security).toMatchObject({ user_id: 'usr_test', user_email: 'owner@shop.example', ip: '203.0.113.7' });
      expect(JSON.parse(security.details!)).toEqual({ changed: ['displayName', 'logoUrl', 'successUrl', 'cancelUrl'] });
      // The audit entry names the logo's kind and size, not its 64 KB of base64.
      expect(entry.after).not.toContain(PNG);
      expect(entry.after).toContain('data:image/png;base64,…');

      const cleared = await settings().update(owner0(), { logoUrl: null, cancelUrl: null });
      expect(cleared).toMatchObject({ displayName: 'Café <Ünïcode> & Co', logoUrl: null, cancelUrl: null });
      // The largest data: logo accepted: 60,000 characters.
      const largest = `data:image/webp;base64,${'A'.repeat(60_000 - 23)}`;
      expect(largest).toHaveLength(60_000);
      expect((await settings().update(owner0(), { logoUrl: largest })).logoUrl).toBe(largest);
      const https = await settings().update(owner0(), { logoUrl: 'https://cdn.shop.example/logo.webp' });
      expect(https.logoUrl).toBe('https://cdn.shop.example/logo.webp');
      // The support address (the Reply-To of mail in the merchant's name): one plain address.
      expect((await settings().update(owner0(), { supportEmail: ' help@shop.example ' })).supportEmail).toBe(
        'help@shop.example',
      );
      await expect(settings().update(owner0(), { supportEmail: 'Help <help@shop.example>' })).rejects.toMatchObject({
        code: 'INVALID_EMAIL',
      });
      expect((await settings().update(owner0(), { supportEmail: null })).supportEmail).toBeNull();
    });

    it('refuses what the payment page must not show, naming the field', async () => {
      const bad: [Record<string, string>, string][] = [
        [{ displayName: 'x'.repeat(101) }, 'INVALID_BODY'],
        [{ displayName: 'two\nlines' }, 'INVALID_BODY'],
        [{ logoUrl: 'http://shop.example/logo.png' }, 'INVALID_URL'],
        [{ logoUrl: 'javascript:alert(1)' }, 'INVALID_URL'],
        [{ logoUrl: 'https://user:pw@shop.example/logo.png' }, 'INVALID_URL'],
        [{ logoUrl: `https://shop.example/${'a'.repeat(2048)}` }, 'INVALID_BODY'],
        [{ logoUrl: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' }, 'INVALID_BODY'],
        [{ logoUrl: 'data:image/png;base64,<script>' }, 'INVALID_BODY'],
        [{ logoUrl: `data:image/png;base64,${'A'.repeat(60_000 - 21)}` }, 'INVALID_BODY'],
        [{ successUrl: 'http://shop.example/thanks' }, 'INVALID_URL'],
        [{ cancelUrl: 'not a url' }, 'INVALID_URL'],
      ];
      for (const [patch, code] of bad) {
        const e = await refused(settings().update(owner0(), patch), code);
        expect(e.details?.field, JSON.stringify(patch)).toBe(Object.keys(patch)[0]);
      }
    });

    it('a new checkout without URLs gets the defaults; one with URLs keeps its own', async () => {
      await settings().update(owner0(), {
        successUrl: 'https://shop.example/ok',
        cancelUrl: 'https://shop.example/back',
      });
      const plain = await env.services.checkouts.create(merchantId, { amount: '25', currency: 'EUR' });
      expect(plain).toMatchObject({ successUrl: 'https://shop.example/ok', cancelUrl: 'https://shop.example/back' });
      const own = await env.services.checkouts.create(merchantId, {
        amount: '25',
        currency: 'EUR',
        successUrl: 'https://other.example/done',
      });
      expect(own).toMatchObject({ successUrl: 'https://other.example/done', cancelUrl: 'https://shop.example/back' });
    });
  });

  describe('API keys', () => {
    const keys = () => env.services.selfService.keys;
    const owner = (): KeyUser => ({ ...owner0(), scopes: [...SCOPES] });
    const developer = (): KeyUser => ({ ...who(() => merchantId, 'usr_dev', 'dev@shop.example'), scopes: DEVELOPER });

    it("create shows the secret once; list shows the merchant's keys without secrets", async () => {
      const created = await keys().create(owner(), { label: 'shop backend' });
      expect(created.apiSecret).toMatch(/^sk_/);
      expect(created.scopes).toEqual([...DEFAULT_SCOPES]);
      expect(created.label).toBe('shop backend');
      const listed = await keys().list(owner(), { limit: 200 });
      const mine = listed.items.find((k) => k.id === created.id)!;
      expect(mine).not.toHaveProperty('apiSecret');
      expect(listed.items.every((k) => k.merchantId === merchantId)).toBe(true);
      const theirs = await env.services.admin.createApiKey(otherId, {}, { operator: 'test' });
      expect((await keys().list(owner(), { limit: 200 })).items.some((k) => k.id === theirs.id)).toBe(false);
    });

    it('a developer cannot grant, roll or revoke payouts:write; an owner can', async () => {
      await refused(keys().create(developer(), { scopes: ['checkout:read', 'payouts:write'] }), 'SCOPE_MISSING');
      const payoutKey = await keys().create(owner(), { scopes: ['payouts:write', 'payouts:read'] });
      await refused(keys().roll(developer(), payoutKey.id), 'SCOPE_MISSING');
      await refused(keys().revoke(developer(), payoutKey.id), 'SCOPE_MISSING');
      const devKey = await keys().create(developer(), { scopes: ['checkout:write', 'checkout:read'] });
      expect(devKey.scopes).toEqual(['checkout:write', 'checkout:read']);
      // Without scopes: the default set, which a developer holds.
      expect((await keys().create(developer(), {})).scopes).toEqual([...DEFAULT_SCOPES]);
      const rolled = await keys().roll(owner(), payoutKey.id);
      expect(rolled.new.apiSecret).toMatch(/^sk_/);
      expect(rolled.new.scopes).toEqual(['payouts:write', 'payouts:read']);
      expect(rolled.old.rotatedTo).toBe(rolled.new.id);
      expect((await keys().revoke(owner(), rolled.new.id)).status).toBe('revoked');
    });

    it("another merchant's key is 404 to roll or revoke, and stays active", async () => {
      const theirs = await env.services.admin.createApiKey(otherId, {}, { operator: 'test' });
      await refused(keys().roll(owner(), theirs.id), 'NOT_FOUND');
      await refused(keys().revoke(owner(), theirs.id), 'NOT_FOUND');
      await refused(keys().revoke(owner(), 'hp_missing'), 'NOT_FOUND');
      expect((await env.services.admin.getApiKey(theirs.id)).status).toBe('active');
    });

    it('every change is audited as done by the user', async () => {
      const k = await keys().create(developer(), { label: 'audited' });
      await keys().revoke(developer(), k.id);
      const rows = await env.services.store.db
        .selectFrom('audit_log')
        .select(['action', 'operator'])
        .where('object_id', '=', k.id)
        .orderBy('at')
        .orderBy('action')
        .execute();
      expect(rows).toEqual([
        { action: 'api_key.create', operator: 'dashboard:dev@shop.example' },
        { action: 'api_key.revoke', operator: 'dashboard:dev@shop.example' },
      ]);
      // And in the team's security log, as the user, with the key named (never its secret).
      const security = await env.services.store.db
        .selectFrom('merchant_security_log')
        .select(['action', 'user_id', 'details'])
        .where('merchant_id', '=', merchantId)
        .where('user_id', '=', 'usr_dev')
        .execute();
      const forKey = security.filter((r) => r.details?.includes(k.id));
      expect(forKey.map((r) => r.action).sort()).toEqual(['key.created', 'key.revoked']);
      expect(forKey.some((r) => r.details?.includes(k.apiSecret))).toBe(false);
    });

    it('a key change and its security-log entry land together: when the entry cannot be written, the key is not changed', async () => {
      const db = env.services.store.db;
      const kept = await keys().create(owner(), { label: 'kept' });
      // A real failure of the store's own: the log table refuses every insert while the trigger exists.
      if (dialect === 'sqlite')
        await sql`create trigger hp_test_log_down before insert on merchant_security_log begin select raise(abort, 'security log down'); end`.execute(
          db,
        );
      else {
        await sql`create function hp_test_log_down() returns trigger language plpgsql as $$ begin raise exception 'security log down'; end $$`.execute(
          db,
        );
        await sql`create trigger hp_test_log_down before insert on merchant_security_log for each row execute function hp_test_log_down()`.execute(
          db,
        );
      }
      const countKeys = async () =>
        Number(
          (
            await db
              .selectFrom('api_keys')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('merchant_id', '=', merchantId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await countKeys();
      try {
        await expect(keys().create(owner(), { label: 'lost' })).rejects.toThrow(/security log down/);
        await expect(keys().roll(owner(), kept.id)).rejects.toThrow(/security log down/);
        await expect(keys().revoke(owner(), kept.id)).rejects.toThrow(/security log down/);
      } finally {
        await sql`drop trigger hp_test_log_down${dialect === 'sqlite' ? sql`` : sql` on merchant_security_log`}`.execute(
          db,
        );
        if (dialect !== 'sqlite') await sql`drop function hp_test_log_down()`.execute(db);
      }
      expect(await countKeys()).toBe(before);
      const after = await env.services.admin.getApiKey(kept.id);
      expect(after.status).toBe('active');
      expect(after.rotatedTo).toBeNull();
      const audited = await db.selectFrom('audit_log').select('action').where('object_id', '=', kept.id).execute();
      expect(audited.map((r) => r.action)).toEqual(['api_key.create']);
      // And once the log is back, the same calls work.
      expect((await keys().revoke(owner(), kept.id)).status).toBe('revoked');
    });
  });
});
