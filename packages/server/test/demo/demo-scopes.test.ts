import { DEFAULT_SCOPES, SCOPES } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo/seed.js';
import { DIALECTS, tempServices } from '../helpers.js';
import { checkoutCall } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { expectError, issueToken } from '../http-helpers/requests.js';

/**
 * The demo's printed credentials refund and pay out (issue: `checkout refund` with them answered
 * SCOPE_MISSING); and a SCOPE_MISSING says what lacks the scope, the key or only its token, and
 * how to get one that has it.
 */
describe.each(DIALECTS)('the demo key on %s', (dialect) => {
  it('has every scope, payouts:write included; an older demo key with the default scopes is widened once, a narrowed one is not', async () => {
    const env = await tempServices(dialect);
    try {
      const { admin, merchant } = env.services;
      const demo = await seedDemo(env.services, env.dataDir);
      expect([...(await merchant.findApiKey(demo.apiKey))!.scopes].sort()).toEqual([...SCOPES].sort());
      // A data directory made before: its key was created with the defaults.
      await admin.updateApiKey(demo.apiKey, { scopes: [...DEFAULT_SCOPES] }, { operator: 'test' });
      const again = await seedDemo(env.services, env.dataDir);
      expect(again.created).toBe(false);
      expect((await admin.getApiKey(demo.apiKey)).scopes).toContain('payouts:write');
      // Narrowed by hand: left as the operator set it.
      await admin.updateApiKey(demo.apiKey, { scopes: ['wallets:read'] }, { operator: 'test' });
      await seedDemo(env.services, env.dataDir);
      expect((await admin.getApiKey(demo.apiKey)).scopes).toEqual(['wallets:read']);
    } finally {
      await env.cleanup();
    }
  });
});

describe('SCOPE_MISSING names what lacks the scope', () => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture();
  });
  afterAll(() => fx?.close());
  const destination = { chain: 'TRON', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' };

  it('the demo key itself may add a payout destination (payouts:write)', async () => {
    const res = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/payout-destinations', destination);
    expect(res.statusCode, res.body).toBe(201);
  });

  it('a key without the scope: the key is named, with the commands that give one', async () => {
    const plain = await fx.createKey(fx.demo.merchantId);
    const err = expectError(
      await checkoutCall(fx, plain, 'POST', '/api/v1/cp/payout-destinations', destination),
      403,
      'SCOPE_MISSING',
    );
    expect(err.message).toContain(`which the API key ${plain.apiKey} does not have`);
    expect(err.message).toContain(`hostpay key update ${plain.apiKey} --scopes`);
    expect(err.message).toContain(`hostpay key create --merchant ${fx.demo.merchantId} --scopes`);
    expect(err.message).not.toContain('your bearer token');
  });

  it('a key with the scope and a narrowed token: the token is named, with how to get a wider one', async () => {
    const token = await issueToken(fx, fx.demo, '{"scope":["wallets:read"]}');
    const err = expectError(
      await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/payout-destinations', destination, {}, token),
      403,
      'SCOPE_MISSING',
    );
    expect(err.message).toContain(`which your bearer token does not have (its key ${fx.demo.apiKey} has it)`);
    expect(err.message).toContain('POST /api/v1/auth/token');
  });
});
