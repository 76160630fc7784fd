import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readVectorFile } from '../../protocol/test/vectors.js';
import { parseMasterKey } from '../src/crypto/master-key.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { allocateAddress, keyOpens } from '../src/features/addresses/allocate.js';
import { accountKeyOwner } from '../src/features/addresses/sealed-key.js';
import { sealPlaintextColumns } from '../src/features/master-key/seal-plaintext.js';
import { hotWalletOwner } from '../src/features/hot-wallet/key.js';
import { secretOwner } from '../src/features/webhooks/service.js';
import { maskWebhookUrl } from '../src/outbound/mask-url.js';
import { createServices, type Services } from '../src/services.js';
import { MIGRATIONS, migrate } from '../src/migrations.js';
import { dropPostgresSchema, openPostgresStore } from '../src/store/postgres.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { Store } from '../src/store/store.js';
import { DIALECTS, TEST_DATABASE_URL, tempServices, type Dialect, type TempEnv } from './helpers.js';
import { adminCaller, ALICE } from './http-helpers/admin-fixture.js';
import { createFixture } from './http-helpers/fixture.js';
import { drain, merchantCall, Receiver } from './http-helpers/webhooks.js';

/**
 * Account xpubs and webhook URLs at rest (issue 24, item 6): sealed under the master key, shown
 * masked, re-sealed by a rotation, and rows an earlier release stored in plain text sealed on the
 * first open after migration 011 and still usable.
 */
const vectors = readVectorFile<{
  chains: { chain: string; network: string; accountXpub: string; addresses: { index: number; address: string }[] }[];
}>('addresses.json');
const eth = vectors.chains.find((c) => c.chain === 'ETH' && c.network === 'mainnet')!;
const TOKEN = 'tok_8f2Kq9Zr41mXw7LpQ3';
const QUERY_SECRET = 'qv7Rt2xx';
const ctx = { operator: 'test' };

describe('webhook URL masking', () => {
  it.each([
    ['https://example.com/hooks', 'https://example.com/hooks'],
    ['https://example.com/hooks/tok_8f2Kq9Zr41mXw7LpQ3', 'https://example.com/hooks/tok_…'],
    ['https://example.com:8443/a/0123456789abcdef/b', 'https://example.com:8443/a/0123…/b'],
    // 15 characters: too short to be taken for a token.
    ['https://example.com/shop/orders-webhook', 'https://example.com/shop/orders-webhook'],
    ['https://example.com/x/eyJhbGciOiJIUzI1.NiJ9.e30', 'https://example.com/x/eyJh…'],
    ['https://example.com/h?key=abc&mode=live', 'https://example.com/h?key=***&mode=***'],
    ['https://example.com/h?Zm9vYmFyYmF6cXV4MTIzNDU2', 'https://example.com/h?Zm9v…=***'],
    ['https://user:pass@example.com/h', 'https://***@example.com/h'],
    ['https://example.com/h#frag', 'https://example.com/h'],
    ['not a url', '(not a URL)'],
  ])('%s → %s', (url, shown) => {
    expect(maskWebhookUrl(url)).toBe(shown);
  });
});

describe.each(DIALECTS)('xpubs and webhook URLs at rest on %s', (dialect: Dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('an xpub set by an operator is stored sealed, audited by fingerprint, re-sealed by a rotation', async () => {
    const env: TempEnv = await tempServices(dialect);
    cleanups.push(async () => {
      // The services reopened below are env.services by then; cleanup closes the first ones.
      await env.services.close();
      await env.cleanup();
    });
    const set = await env.services.admin.setChainXpub('ETH', eth.accountXpub, ctx);
    expect(set.xpub).toBe(eth.accountXpub);
    const raw = async (services: Services) =>
      services.store.db
        .selectFrom('account_keys')
        .selectAll()
        .where('id', '=', set.accountKeyId)
        .executeTakeFirstOrThrow();
    const row = await raw(env.services);
    expect(JSON.stringify(row)).not.toContain(eth.accountXpub);
    // Not even a long piece of it: the preview's 18 characters are all that is kept in clear.
    expect(JSON.stringify(row)).not.toContain(eth.accountXpub.slice(12, 40));
    expect(row.xpub_fingerprint).toBe(set.fingerprint);
    const audits = await env.services.store.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'chain.set_xpub')
      .execute();
    expect(audits).toHaveLength(1);
    expect(JSON.stringify(audits)).not.toContain(eth.accountXpub.slice(12, 40));
    expect(JSON.parse(audits[0]!.after!)).toEqual({
      accountKeyId: set.accountKeyId,
      fingerprint: set.fingerprint,
      preview: `${eth.accountXpub.slice(0, 12)}…${eth.accountXpub.slice(-6)}`,
    });
    // The same key again is the same row (the lookup is the hash, the text is random each time).
    expect((await env.services.admin.setChainXpub('ETH', eth.accountXpub, ctx)).accountKeyId).toBe(set.accountKeyId);

    const oldMaster = readFileSync(`${env.dataDir}/master.key`, 'utf8').trim();
    const newMaster = randomBytes(32).toString('base64');
    await env.services.close();
    const rotated = await env.reopen({ masterKey: newMaster, masterKeyPrevious: oldMaster });
    // The token signing key and the account key.
    expect(await rotated.admin.rotateMasterKey(ctx)).toEqual({ resealed: 2, alreadyCurrent: 0 });
    await rotated.close();
    env.services = await env.reopen({ masterKey: newMaster });
    const after = await raw(env.services);
    expect(after.xpub_sealed).not.toBe(row.xpub_sealed);
    expect(
      new SecretBox(parseMasterKey(newMaster)).open(after.xpub_sealed, accountKeyOwner(set.accountKeyId)).toString(),
    ).toBe(eth.accountXpub);
    // Addresses derive as before from the re-sealed key, opened once for many addresses.
    const chain = await env.services.store.db
      .selectFrom('chains')
      .selectAll()
      .where('symbol', '=', 'ETH')
      .executeTakeFirstOrThrow();
    const opensBefore = keyOpens.count;
    const taken = [];
    for (let i = 0; i < 3; i++)
      taken.push(
        await env.services.store.writeTransaction((trx) =>
          allocateAddress(trx, env.services.box, chain, { checkoutId: `chk_${i}`, optionId: `opt_${i}` }, at()),
        ),
      );
    expect(taken.map((t) => t.address)).toEqual(eth.addresses.slice(0, 3).map((a) => a.address));
    expect(keyOpens.count - opensBefore).toBe(1);
    expect((await env.services.admin.getChainXpub('ETH')).xpub).toBe(eth.accountXpub);
  });

  it('rows a release before migration 011 stored in plain text: sealed on the first open, still usable', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-sealed-'));
    const schema = `hp_test_${randomBytes(6).toString('hex')}`;
    cleanups.push(async () => {
      rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
    });
    const store: Store =
      dialect === 'sqlite'
        ? openSqliteStore(join(dataDir, 'hostpay.db'))
        : await openPostgresStore(TEST_DATABASE_URL, { schema });
    const rx = await Receiver.start();
    cleanups.push(() => rx.close());
    const url = `${rx.url}/${TOKEN}?sig=${QUERY_SECRET}`;
    const masterKey = randomBytes(32).toString('base64');
    const box = new SecretBox(parseMasterKey(masterKey));

    // The store as v10 left it, with what that release wrote.
    await migrate(store, { upTo: 10 });
    const legacy = store.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const now = at();
    await legacy
      .insertInto('merchants')
      .values({ id: 'mch_legacy', name: 'Legacy', created_at: now, updated_at: now })
      .execute();
    await legacy
      .insertInto('account_keys')
      .values({
        id: 'akey_legacy',
        family: 'evm',
        network_type: 'mainnet',
        xpub: eth.accountXpub,
        next_index: 2,
        created_at: now,
      })
      .execute();
    await legacy.updateTable('chains').set({ account_key_id: 'akey_legacy' }).where('id', '=', 'chn_eth').execute();
    await legacy
      .insertInto('webhook_endpoints')
      .values({
        id: 'we_legacy',
        merchant_id: 'mch_legacy',
        url,
        enabled_events: '[]',
        secret_sealed: box.seal('whsec_legacy', secretOwner('we_legacy')),
        created_at: now,
        updated_at: now,
      })
      .execute();
    await legacy
      .insertInto('audit_log')
      .values({
        id: 'aud_legacy',
        at: now,
        operator: 'alice',
        action: 'chain.set_xpub',
        object_type: 'chain',
        object_id: 'chn_eth',
        before: null,
        after: JSON.stringify({ accountKeyId: 'akey_legacy', xpub: eth.accountXpub, given: eth.accountXpub }),
      })
      .execute();
    await legacy.insertInto('event_sequences').values({ merchant_id: 'mch_legacy', last_sequence: 1 }).execute();
    await legacy
      .insertInto('events')
      .values({
        id: 'evt_legacy',
        merchant_id: 'mch_legacy',
        sequence: 1,
        type: 'test.ping',
        data: JSON.stringify({ object: { endpointId: 'we_legacy', url, message: 'test' } }),
        created_at: now,
      })
      .execute();

    // 011 and every migration after it (each release adds its own).
    expect(await migrate(store)).toEqual({ applied: MIGRATIONS.map((m) => m.version).filter((v) => v >= 11) });
    const dump = async (table: 'account_keys' | 'webhook_endpoints' | 'audit_log' | 'events') =>
      JSON.stringify(await store.db.selectFrom(table).selectAll().execute());
    // The copies needed no key: rewritten by the migration itself.
    expect(await dump('audit_log')).not.toContain(eth.accountXpub.slice(12, 40));
    expect(await dump('events')).not.toContain(TOKEN);
    expect(await dump('events')).toContain(maskWebhookUrl(url));

    const services = await createServices(
      {
        dataDir,
        databaseUrl: dialect === 'sqlite' ? '' : TEST_DATABASE_URL,
        databaseSchema: schema,
        masterKey,
        sandbox: true,
      },
      { store, expirySweepMs: 0, webhooks: { worker: { pollMs: 60_000 } } },
    );
    cleanups.push(() => services.close());
    for (const table of ['account_keys', 'webhook_endpoints', 'audit_log', 'events'] as const) {
      const text = await dump(table);
      expect(text, table).not.toContain(eth.accountXpub.slice(12, 40));
      expect(text, table).not.toContain(TOKEN);
      expect(text, table).not.toContain(QUERY_SECRET);
    }
    const audit = await services.store.db.selectFrom('audit_log').selectAll().executeTakeFirstOrThrow();
    const fingerprint = (await services.admin.getChainXpub('ETH')).fingerprint;
    expect(JSON.parse(audit.after!)).toEqual({
      accountKeyId: 'akey_legacy',
      fingerprint,
      preview: `${eth.accountXpub.slice(0, 12)}…${eth.accountXpub.slice(-6)}`,
    });
    // A second open (or another instance) finds nothing left to seal.
    expect(await sealPlaintextColumns(services.store, services.box)).toEqual({ accountKeys: 0, webhookUrls: 0 });

    // Addresses derive as before, after the two the earlier release handed out.
    expect((await services.admin.getChainXpub('ETH')).xpub).toBe(eth.accountXpub);
    expect((await services.admin.getChain('ETH')).accountKey).toEqual({
      id: 'akey_legacy',
      preview: `${eth.accountXpub.slice(0, 12)}…${eth.accountXpub.slice(-6)}`,
      fingerprint,
      nextIndex: 2,
    });
    const chain = await services.store.db
      .selectFrom('chains')
      .selectAll()
      .where('symbol', '=', 'ETH')
      .executeTakeFirstOrThrow();
    const next = await services.store.writeTransaction((trx) =>
      allocateAddress(trx, services.box, chain, { checkoutId: 'chk_new', optionId: 'opt_new' }, at()),
    );
    expect(next).toEqual({ address: eth.addresses[2]!.address, accountKeyId: 'akey_legacy', index: 2 });

    // The merchant sees its URL masked; deliveries go to the whole URL, opened once per endpoint.
    const [listed] = (await services.webhooks.endpoints.list('mch_legacy', {})).items;
    expect(listed!.url).toBe(`${rx.url}/tok_…?sig=***`);
    const open = vi.spyOn(services.box, 'open');
    for (let i = 0; i < 3; i++) await services.webhooks.endpoints.test('mch_legacy', 'we_legacy');
    await drain(services.webhooks.worker);
    const got = await rx.waitFor(3);
    expect(got.map((r) => r.path)).toEqual(Array(3).fill(`/hooks/${TOKEN}?sig=${QUERY_SECRET}`));
    expect(got.map((r) => JSON.parse(r.body).data.object.url)).toEqual(Array(3).fill(`${rx.url}/tok_…?sig=***`));
    expect(open.mock.calls.filter(([, owner]) => owner === 'webhook-url:we_legacy')).toHaveLength(1);
    open.mockRestore();
  });
});

describe('webhook URLs over the merchant API', () => {
  it('whole in the answer that set it; masked in every other answer, the operator list, the test event and the logs', async () => {
    const fx = await createFixture({ sandbox: true }, { webhooks: { worker: { pollMs: 60_000 } } });
    const rx = await Receiver.start();
    try {
      const lines: string[] = [];
      const stream = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
      const logged = { ...fx, app: await fx.buildApp({ logger: { level: 'trace', stream } }) };
      const E = '/api/v1/cp/webhook-endpoints';
      const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => {
        const res = await merchantCall(logged, fx.demo, method, path, body);
        expect(res.statusCode, `${method} ${path}: ${res.body}`).toBeLessThan(300);
        return JSON.parse(res.body).result;
      };
      const url = `${rx.url}/${TOKEN}?sig=${QUERY_SECRET}`;
      const masked = `${rx.url}/tok_…?sig=***`;
      const created = await call('POST', E, { url });
      expect(created.url).toBe(url);
      const id = created.id as string;
      expect((await call('GET', E)).find((e: { id: string }) => e.id === id).url).toBe(masked);
      expect((await call('GET', `${E}/${id}`)).url).toBe(masked);
      expect((await call('PATCH', `${E}/${id}`, { description: 'shop' })).url).toBe(masked);
      expect((await call('POST', `${E}/${id}/rotate-secret`)).url).toBe(masked);
      const operators = await fx.services.webhooks.admin.getWebhookEndpoint(id);
      expect(operators.url).toBe(masked);
      await call('POST', `${E}/${id}/test`);
      await drain(fx.services.webhooks.worker);
      const [ping] = await rx.waitFor(1);
      expect(ping!.path).toBe(`/hooks/${TOKEN}?sig=${QUERY_SECRET}`);
      expect(JSON.parse(ping!.body).data.object.url).toBe(masked);
      // A new URL: whole in that answer, and the next delivery goes there (the cached one is not reused).
      const moved = `${rx.url}/moved/${TOKEN}X`;
      expect((await call('PATCH', `${E}/${id}`, { url: moved })).url).toBe(moved);
      await call('POST', `${E}/${id}/test`);
      await drain(fx.services.webhooks.worker);
      expect((await rx.waitFor(2))[1]!.path).toBe(`/hooks/moved/${TOKEN}X`);
      expect((await call('DELETE', `${E}/${id}`)).url).toBe(`${rx.url}/moved/tok_…`);
      expect(lines.length).toBeGreaterThan(5);
      expect(lines.join('')).not.toContain(TOKEN);
      expect(lines.join('')).not.toContain(QUERY_SECRET);
    } finally {
      await rx.close();
      await fx.close();
    }
  });
});

/** anvil's second default account: a well-known key, fine to print in a test, never to be printed by hostpay. */
const HOT_KEY = '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const HOT_ADDRESS = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

describe.each(DIALECTS)('hot wallet keys at rest on %s', (dialect: Dialect) => {
  it('sealed, bound to the chain; never in an answer, the audit trail or a store column; re-sealed by a rotation', async () => {
    const env: TempEnv = await tempServices(dialect);
    try {
      const set = await env.services.admin.setHotWallet('ETH', { privateKey: `0x${HOT_KEY}` }, ctx);
      expect(set).toEqual({ chain: 'ETH', address: HOT_ADDRESS });
      const shown = await env.services.admin.getHotWallet('ETH');
      expect(shown.address).toBe(HOT_ADDRESS);
      // The key in either case and without its 0x, and any long piece of it.
      const leaks = (text: string) =>
        [HOT_KEY, HOT_KEY.toUpperCase(), HOT_KEY.slice(10, 42)].filter((k) => text.includes(k));
      expect(leaks(JSON.stringify([set, shown]))).toEqual([]);
      const db = env.services.store.db;
      const tables = ['hot_wallets', 'hot_wallet_txs', 'audit_log', 'admin_idempotency', 'server_secrets'] as const;
      for (const table of tables)
        expect(leaks(JSON.stringify(await db.selectFrom(table).selectAll().execute()))).toEqual([]);
      const [audit] = await db
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'chain.hot_wallet.set')
        .execute();
      expect(JSON.parse(audit!.after!)).toEqual({ chain: 'ETH', address: HOT_ADDRESS, generated: false });
      const row = await db.selectFrom('hot_wallets').selectAll().executeTakeFirstOrThrow();
      // Bound to its chain: the sealed text copied to another owner does not open.
      expect(() => env.services.box.open(row.key_sealed, hotWalletOwner('chn_other'))).toThrow();
      expect(env.services.box.open(row.key_sealed, hotWalletOwner(row.chain_id)).toString()).toBe(`0x${HOT_KEY}`);

      const oldMaster = readFileSync(`${env.dataDir}/master.key`, 'utf8').trim();
      const newMaster = randomBytes(32).toString('base64');
      await env.services.close();
      const rotated = await env.reopen({ masterKey: newMaster, masterKeyPrevious: oldMaster });
      // The token signing key and the hot wallet key.
      expect(await rotated.admin.rotateMasterKey(ctx)).toEqual({ resealed: 2, alreadyCurrent: 0 });
      await rotated.close();
      env.services = await env.reopen({ masterKey: newMaster });
      const after = await env.services.store.db.selectFrom('hot_wallets').selectAll().executeTakeFirstOrThrow();
      expect(after.key_sealed).not.toBe(row.key_sealed);
      expect(
        new SecretBox(parseMasterKey(newMaster)).open(after.key_sealed, hotWalletOwner(after.chain_id)).toString(),
      ).toBe(`0x${HOT_KEY}`);
    } finally {
      await env.services.close();
      await env.cleanup();
    }
  });
});

describe('hot wallet keys over the admin API', () => {
  it('set, generated, refused, read and removed: the key in no answer and no log line, a malformed one not quoted', async () => {
    const fx = await createFixture({ sandbox: true, adminTokens: `alice:${ALICE}` });
    try {
      const lines: string[] = [];
      const stream = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
      const app = await fx.buildApp({ logger: { level: 'trace', stream } });
      const admin = adminCaller(() => app);
      const bodies: string[] = [];
      const call = async (method: string, body?: unknown) => {
        const res = await admin(method, '/chains/ETH/hot-wallet', body === undefined ? {} : { body });
        bodies.push(res.body);
        return res;
      };
      const set = await call('PUT', { privateKey: HOT_KEY });
      expect(set.statusCode, set.body).toBe(200);
      expect(JSON.parse(set.body).result).toEqual({ chain: 'ETH', address: HOT_ADDRESS });
      // One digit off: refused without echoing what was sent.
      const typo = `${HOT_KEY.slice(0, 40)}g${HOT_KEY.slice(41)}`;
      const refused = await call('PUT', { privateKey: typo });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).not.toContain(typo.slice(0, 40));
      expect((await call('GET')).statusCode).toBe(200);
      const generated = JSON.parse((await call('PUT', {})).body).result;
      expect(generated.address).toMatch(/^0x[0-9a-f]{40}$/);
      expect(generated.address).not.toBe(HOT_ADDRESS);
      expect(Object.keys(generated).sort()).toEqual(['address', 'chain']);
      expect((await call('DELETE')).statusCode).toBe(200);
      const generatedKey = fx.services.store.db.selectFrom('hot_wallets').selectAll().execute();
      expect(await generatedKey).toEqual([]);
      expect(lines.length).toBeGreaterThan(4);
      for (const text of [lines.join(''), bodies.join('')]) {
        expect(text).not.toContain(HOT_KEY);
        expect(text).not.toContain(HOT_KEY.slice(10, 42));
      }
    } finally {
      await fx.close();
    }
  });
});

const at = () => new Date().toISOString();
