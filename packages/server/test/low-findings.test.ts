import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signV2, unixTimestamp } from '@hostpay/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipAllowed, parseCidr } from '../src/auth/cidr.js';
import { adminTokens, tokenWeakness } from '../src/auth/operator-settings.js';
import { loadConfig } from '../src/config.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import { DIALECTS } from './helpers.js';
import { createAdminFixture, errorOf, resultOf, type AdminFixture } from './http-helpers/admin-fixture.js';

/** The low findings of the security review (issue 10, item 4), one block each. */
let fx: AdminFixture;
beforeAll(async () => {
  fx = await createAdminFixture('sqlite');
});
afterAll(() => fx.close());

const newMerchant = async (name = 'Low Shop'): Promise<string> =>
  resultOf<{ id: string }>(await fx.call('POST', '/merchants', { body: { name } }), 201).id;

describe('changing the settlement currency re-checks the fee schedules precision rule', () => {
  it('a schedule with a 0.000001 USDT minimum cannot be switched to EUR (2 decimals); a coarser one can', async () => {
    const merchantId = await newMerchant();
    resultOf(
      await fx.call('PUT', '/fees', {
        body: {
          currency: 'USDC',
          isPercentage: true,
          value: '1',
          minValue: '0.000001',
          feeCurrency: 'USDT',
          merchantId,
        },
      }),
    );
    const err = errorOf(
      await fx.call('PUT', '/settlement-currencies', {
        body: { currency: 'USDC', settlementCurrency: 'EUR', merchantId },
      }),
      400,
      'INVALID_AMOUNT',
    );
    expect(err.message).toContain('more decimal places than EUR');
    // Nothing changed.
    expect(
      resultOf<{ merchantId: string | null; currency: string; settlementCurrency: string }[]>(
        await fx.call('GET', '/settlement-currencies'),
      ).find((r) => r.merchantId === merchantId),
    ).toMatchObject({ settlementCurrency: 'USDT' });
    // The same through setFee's feeCurrency on another tier of the scope.
    errorOf(
      await fx.call('PUT', '/fees', {
        body: { currency: 'USDC', isPercentage: true, value: '1', fromAmount: '1000', feeCurrency: 'EUR', merchantId },
      }),
      400,
      'INVALID_AMOUNT',
    );
    resultOf(
      await fx.call('PUT', '/fees', {
        body: { currency: 'USDC', isPercentage: true, value: '1', minValue: '0.5', merchantId },
      }),
    );
    resultOf(
      await fx.call('PUT', '/settlement-currencies', {
        body: { currency: 'USDC', settlementCurrency: 'EUR', merchantId },
      }),
    );
  });

  it('the default scope checks the merchant schedules that follow it, not those with their own currency', async () => {
    const follows = await newMerchant('Follows default');
    const own = await newMerchant('Own currency');
    const fine = resultOf<{ id: string }>(
      await fx.call('PUT', '/fees', {
        body: { currency: 'TRX', isPercentage: false, value: '0.001', merchantId: follows },
      }),
    );
    const kept = resultOf<{ id: string }>(
      await fx.call('PUT', '/fees', {
        body: {
          currency: 'TRX',
          isPercentage: true,
          value: '1',
          minValue: '0.000001',
          feeCurrency: 'USDT',
          merchantId: own,
        },
      }),
    );
    const err = errorOf(
      await fx.call('PUT', '/settlement-currencies', { body: { currency: 'TRX', settlementCurrency: 'EUR' } }),
      400,
      'INVALID_AMOUNT',
    );
    expect(err.error.details).toEqual({ tiers: [fine.id] });
    expect(err.message).not.toContain(kept.id);
    resultOf(
      await fx.call('PUT', '/fees', {
        body: { currency: 'TRX', isPercentage: false, value: '0.5', merchantId: follows },
      }),
    );
    resultOf(await fx.call('PUT', '/settlement-currencies', { body: { currency: 'TRX', settlementCurrency: 'EUR' } }));
  });
});

describe('the settlement.set audit entry records before', () => {
  it('null the first time, the previous currency after', async () => {
    const merchantId = await newMerchant();
    resultOf(
      await fx.call('PUT', '/settlement-currencies', {
        body: { currency: 'BTC', settlementCurrency: 'USDT', merchantId },
      }),
    );
    resultOf(
      await fx.call('PUT', '/settlement-currencies', {
        body: { currency: 'BTC', settlementCurrency: 'ETH', merchantId },
      }),
    );
    const entries = resultOf<{ items: { before: unknown; after: unknown }[] }>(
      await fx.call('GET', `/audit?objectId=${merchantId}:BTC&action=settlement.set`),
    ).items;
    expect(entries.map((e) => e.before)).toEqual(
      expect.arrayContaining([null, { currency: 'BTC', settlementCurrency: 'USDT' }]),
    );
  });
});

describe('a missing file under /docs/static/ is 404', () => {
  it('404 NOT_FOUND, not 405 with Allow: HEAD', async () => {
    const res = await fx.app.inject({ method: 'GET', url: '/docs/static/no-such-file.js' });
    errorOf(res, 404, 'NOT_FOUND');
    expect(res.headers.allow).toBeUndefined();
    expect((await fx.app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' })).statusCode).toBe(200);
  });
});

describe('admin body errors are INVALID_BODY', () => {
  it('a bad field in a body is INVALID_BODY; a bad query parameter stays INVALID_QUERY', async () => {
    const merchantId = await newMerchant();
    errorOf(
      await fx.call('POST', `/merchants/${merchantId}/keys`, { body: { scopes: ['admin'] } }),
      400,
      'INVALID_BODY',
    );
    errorOf(await fx.call('POST', '/merchants', { body: { name: ' ' } }), 400, 'INVALID_BODY');
    errorOf(await fx.call('GET', '/merchants?limit=0'), 400, 'INVALID_QUERY');
  });
});

describe('time inputs accept only a full ISO 8601 time with an offset', () => {
  const merchant = () => newMerchant();
  for (const bad of [
    '2027-01-01',
    '2027-01-01T00:00',
    '2027-01-01T00:00:00',
    'Jan 1 2027',
    '1798761600',
    '2027-13-01T00:00:00Z',
    '2027-01-01 00:00:00Z',
  ]) {
    it(`${JSON.stringify(bad)} is refused for expiresAt, overlapUntil and since`, async () => {
      const merchantId = await merchant();
      errorOf(
        await fx.call('POST', `/merchants/${merchantId}/keys`, { body: { expiresAt: bad } }),
        400,
        'INVALID_BODY',
      );
      const key = resultOf<{ id: string }>(await fx.call('POST', `/merchants/${merchantId}/keys`, { body: {} }), 201);
      errorOf(await fx.call('POST', `/keys/${key.id}/rotate`, { body: { overlapUntil: bad } }), 400, 'INVALID_BODY');
      errorOf(await fx.call('GET', `/audit?since=${encodeURIComponent(bad)}`), 400, 'INVALID_QUERY');
    });
  }
  it('with Z or an offset it is accepted and stored in UTC', async () => {
    const merchantId = await merchant();
    const key = resultOf<{ expiresAt: string }>(
      await fx.call('POST', `/merchants/${merchantId}/keys`, { body: { expiresAt: '2027-01-01T02:00:00+02:00' } }),
      201,
    );
    expect(key.expiresAt).toBe('2027-01-01T00:00:00.000Z');
    resultOf(await fx.call('GET', '/audit?since=2026-01-01T00:00:00.5Z'));
  });
});

describe('idempotent-request body comparison is canonical', () => {
  it('the same body with its keys in another order replays; another value conflicts', async () => {
    const merchantId = await newMerchant();
    const first = await fx.call('POST', `/merchants/${merchantId}/keys`, {
      body: '{"label":"pos","scopes":["fees:read"]}',
      idempotencyKey: 'canon-1',
    });
    resultOf(first, 201);
    const replay = await fx.call('POST', `/merchants/${merchantId}/keys`, {
      body: '{"scopes":["fees:read"],"label":"pos"}',
      idempotencyKey: 'canon-1',
    });
    expect(replay.statusCode, replay.body).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    errorOf(
      await fx.call('POST', `/merchants/${merchantId}/keys`, {
        body: '{"scopes":["wallets:read"],"label":"pos"}',
        idempotencyKey: 'canon-1',
      }),
      409,
      'IDEMPOTENCY_CONFLICT',
    );
  });
});

describe.each(DIALECTS)('rotating an already-rotated key is 409 (%s)', (dialect) => {
  it('one live successor, also when two rotations race', async () => {
    const world = dialect === 'sqlite' ? fx : await createAdminFixture(dialect);
    try {
      const merchantId = resultOf<{ id: string }>(
        await world.call('POST', '/merchants', { body: { name: 'Rotate Shop' } }),
        201,
      ).id;
      const key = resultOf<{ id: string }>(
        await world.call('POST', `/merchants/${merchantId}/keys`, { body: {} }),
        201,
      );
      const both = await Promise.all([
        world.call('POST', `/keys/${key.id}/rotate`),
        world.call('POST', `/keys/${key.id}/rotate`),
      ]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const refused = both.find((r) => r.statusCode === 409)!;
      errorOf(refused, 409, 'KEY_ALREADY_ROTATED');
      const successor = (
        JSON.parse(both.find((r) => r.statusCode === 201)!.body) as { result: { new: { id: string } } }
      ).result.new.id;
      errorOf(await world.call('POST', `/keys/${key.id}/rotate`), 409, 'KEY_ALREADY_ROTATED');
      const keys = resultOf<{ items: { id: string }[] }>(
        await world.call('GET', `/keys?merchantId=${merchantId}`),
      ).items;
      expect(keys.map((k) => k.id).sort()).toEqual([key.id, successor].sort());
      // The successor can be rotated in its turn.
      resultOf(await world.call('POST', `/keys/${successor}/rotate`), 201);
    } finally {
      if (world !== fx) await world.close();
    }
  });
});

describe('the data directory and the SQLite files are created private', () => {
  it('directory 0700; database, -wal and -shm 0600, whatever the umask', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'hostpay-modes-'));
    const previous = process.umask(0o000);
    try {
      const file = join(parent, 'data', 'hostpay.db');
      const store = openSqliteStore(file);
      await store.writeTransaction((trx) => sql`create table probe (x integer)`.execute(trx));
      expect(statSync(join(parent, 'data')).mode & 0o777).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(statSync(f).mode & 0o777, f).toBe(0o600);
      await store.close();
    } finally {
      process.umask(previous);
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('operator tokens must be hard to guess, checked at start', () => {
  for (const weak of [
    'short-token',
    'a'.repeat(64),
    'ab'.repeat(20),
    'password'.repeat(5),
    '0123456789abcdef'.repeat(2),
    randomBytes(16).toString('hex'),
    `${'password'.repeat(4)}1`,
    `${'a'.repeat(40)}bcdefgh`,
    `${'Tr0ub4dor&3'.repeat(3)}!`,
    'hunter2hunter3hunter4hunter5hunter6',
    'Password123Password456Password789',
    'thisismysupersecretoperatortoken',
    'myhostpayadmintokenforproduction',
    randomUUID(),
    `${randomBytes(16).toString('hex')} ${randomBytes(16).toString('hex')}`,
    `é${randomBytes(32).toString('hex')}`,
  ]) {
    it(`refuses ${JSON.stringify(weak.slice(0, 24))}…`, () => {
      expect(tokenWeakness(weak)).not.toBeNull();
      expect(() => adminTokens(loadConfig({}, { dataDir: '/tmp/x', adminTokens: `ops:${weak}` }))).toThrow(
        /operator token of ops .*openssl rand -hex 32/,
      );
    });
  }
  it('accepts random tokens of 160 bits and more, whatever their draw (hex, base64, base64url)', () => {
    for (let i = 0; i < 2000; i++) {
      expect(tokenWeakness(randomBytes(32).toString('hex'))).toBeNull();
      expect(tokenWeakness(randomBytes(20).toString('hex').toUpperCase())).toBeNull();
      expect(tokenWeakness(randomBytes(24).toString('base64url'))).toBeNull();
      expect(tokenWeakness(randomBytes(24).toString('base64'))).toBeNull();
      expect(tokenWeakness(randomBytes(24).toString('hex'))).toBeNull();
    }
  });
  it('accepts the unlucky draws the old 128-bit variety bar refused (its test failed about 1 CI run in 120)', () => {
    // Each is random output with many repeated characters: 119 and 114 bits by character counts.
    expect(tokenWeakness('pMf474aN3hh7Qbfaz1t37YM3Qa3744n3')).toBeNull();
    expect(tokenWeakness('1effe12ff3fffb16f5bf61fcef431fee1ef55216')).toBeNull();
  });
});

describe('one CIDR parser for accepting and matching allow-list entries', () => {
  it('an IPv4-mapped network with a prefix below 96 is refused by the admin API (it used to be accepted and match nothing)', async () => {
    const merchantId = await newMerchant();
    const err = errorOf(
      await fx.call('POST', `/merchants/${merchantId}/keys`, { body: { ipAllowList: ['::ffff:10.0.0.0/8'] } }),
      400,
      'INVALID_BODY',
    );
    expect(err.message).toContain('::ffff:10.0.0.0/8');
  });
  it('every entry the parser accepts matches the addresses it names', () => {
    const cases: [string, string, boolean][] = [
      ['::ffff:10.0.0.0/104', '10.1.2.3', true],
      ['::ffff:10.0.0.0/104', '11.0.0.1', false],
      ['::ffff:127.0.0.1', '127.0.0.1', true],
      ['127.0.0.0/8', '::ffff:127.0.0.1', true],
      ['::1', '::1', true],
      ['2001:db8::/32', '2001:db8::7', true],
    ];
    for (const [entry, address, allowed] of cases) {
      expect(parseCidr(entry), entry).not.toBeNull();
      expect(ipAllowed([entry], address), `${entry} ${address}`).toBe(allowed);
    }
    for (const bad of [
      '::ffff:10.0.0.0/8',
      '10.0.0.0/33',
      '10.0.0.0/8/8',
      'fe80::1%eth0',
      '10.0.0',
      '',
      '10.0.0.0/-1',
      '10.0.0.0/ 8',
    ]) {
      expect(parseCidr(bad), bad).toBeNull();
    }
  });
});

describe('percent-encoded path segments are decoded once and matched canonically', () => {
  it('%77allets is wallets (and a v2 signature over either spelling verifies); %2F is no separator; double encoding is not decoded twice', async () => {
    const merchantId = await newMerchant();
    const key = resultOf<{ apiKey: string; apiSecret: string }>(
      await fx.call('POST', `/merchants/${merchantId}/keys`, { body: {} }),
      201,
    );
    const token = (
      JSON.parse(
        (
          await fx.app.inject({
            method: 'POST',
            url: '/api/v1/auth/token',
            headers: v2(key, 'POST', '/api/v1/auth/token'),
          })
        ).body,
      ) as { result: { accessToken: string } }
    ).result.accessToken;
    const encoded = '/api/v1/cp/%77allets';
    const res = await fx.app.inject({
      method: 'GET',
      url: encoded,
      headers: { ...v2(key, 'GET', '/api/v1/cp/wallets'), authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    errorOf(await fx.app.inject({ method: 'GET', url: '/api/v1/cp%2Fwallets' }), 404, 'NOT_FOUND');
    errorOf(await fx.app.inject({ method: 'GET', url: '/api/v1/cp/%2577allets' }), 404, 'NOT_FOUND');
    errorOf(await fx.app.inject({ method: 'GET', url: '/api/v1/cp/%E0%A4%A' }), 400, 'INVALID_QUERY');
  });
});

function v2(key: { apiKey: string; apiSecret: string }, method: string, target: string): Record<string, string> {
  const timestamp = unixTimestamp();
  return {
    'api-key': key.apiKey,
    timestamp,
    'signature-version': '2',
    signature: signV2(key.apiSecret, timestamp, method, target),
  };
}
