import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices, loadConfig, type Services } from '@hostpay/server';
import { buildApp } from '@hostpay/server/app';
import { authHeaders } from '../src/signed-request.js';
import { cli, json, text } from './admin-helpers.js';
import { lines, tempDir } from './helpers.js';

const OLD = randomBytes(32).toString('base64');
const NEW = randomBytes(32).toString('hex');

/**
 * `hostpay master-key rotate`, following its documented procedure: a server runs with the new
 * key and the old one as previous while the command re-seals every secret; afterwards the new
 * key alone opens everything, and the old key alone opens nothing.
 */
describe('hostpay master-key rotate', () => {
  const data = tempDir();
  const run = (env: Record<string, string>, ...args: string[]) => cli([...args, '--data-dir', data.dir], env);
  const open: Services[] = [];
  afterAll(async () => {
    for (const s of open) await s.close();
    data.remove();
  });

  /** Services and app over the data dir with the given keys, as a deployed instance would have. */
  async function instance(masterKey: string, masterKeyPrevious = '') {
    const config = loadConfig({}, { dataDir: data.dir, masterKey, masterKeyPrevious, logLevel: 'silent' });
    const services = await createServices(config);
    open.push(services);
    const app = await buildApp({ config, services: services.merchant, features: services, logger: false });
    /** Issues a token with the key's secret: the server must decrypt the secret to verify it. */
    const authenticates = async (key: { apiKey: string; apiSecret: string }) => {
      const headers = authHeaders({ baseUrl: '', apiKey: key.apiKey, apiSecret: key.apiSecret, token: undefined });
      const res = await app.inject({ method: 'POST', url: '/api/v1/auth/token', headers });
      return res.statusCode;
    };
    return { services, authenticates };
  }

  it('re-seals every secret without downtime and loses none', async () => {
    const before = { HOSTPAY_MASTER_KEY: OLD };
    const merchant = json<{ id: string }>(await run(before, 'merchant', 'create', '--name', 'Keyholder', '--json'));
    const keys = [
      json<{ apiKey: string; apiSecret: string }>(
        await run(before, 'key', 'create', '--merchant', merchant.id, '--json'),
      ),
      json<{ apiKey: string; apiSecret: string }>(
        await run(before, 'key', 'create', '--merchant', merchant.id, '--scopes', 'fees:read', '--json'),
      ),
    ];

    // Step 1: an instance deployed with the new key, the old one as previous, serves throughout.
    const during = await instance(NEW, OLD);
    for (const key of keys) expect(await during.authenticates(key)).toBe(200);

    // Step 2: two API secrets, the token-signing secret and the three stored answers of the admin
    // API (the local commands go through it; answers are kept sealed for Idempotency-Key replays)
    // move to the new key; again: nothing to do.
    const both = { HOSTPAY_MASTER_KEY: NEW, HOSTPAY_MASTER_KEY_PREVIOUS: OLD };
    const rotated = await run(both, 'master-key', 'rotate');
    expect(lines(text(rotated))).toEqual([
      're-sealed 6 secrets under the new master key (0 already under it)',
      'next: remove HOSTPAY_MASTER_KEY_PREVIOUS from every instance once they all run with the new HOSTPAY_MASTER_KEY',
    ]);
    expect(rotated.stderr).toBe('');
    expect(json(await run(both, 'master-key', 'rotate', '--json'))).toEqual({ resealed: '0', alreadyCurrent: '6' });
    for (const key of keys) expect(await during.authenticates(key)).toBe(200);

    // Step 3: the new key alone opens every secret, and the server authenticates every key.
    const after = await instance(NEW);
    for (const key of keys) {
      expect((await after.services.merchant.findApiKey(key.apiKey))?.secret.toString()).toBe(key.apiSecret);
      expect(await after.authenticates(key)).toBe(200);
    }
    // The old key alone can open nothing any more (the token-signing secret fails first).
    await expect(instance(OLD)).rejects.toThrow(/sealed under master key \w{8}, which is not configured/);

    const audit = json<{ items: { operator: string; objectType: string }[] }>(
      await run(both, 'audit', 'list', '--action', 'master_key.rotate', '--json'),
    );
    expect(audit.items).toEqual([
      expect.objectContaining({ operator: `cli:${userInfo().username}`, objectType: 'master_key' }),
      expect.objectContaining({ operator: `cli:${userInfo().username}`, objectType: 'master_key' }),
    ]);
  });

  it('needs both variables: exit 2 with the procedure to follow, before opening the store', async () => {
    const fresh = tempDir();
    try {
      // A store sealed under OLD that the new key alone could not open.
      expect(
        (await cli(['merchant', 'create', '--name', 'x', '--data-dir', fresh.dir], { HOSTPAY_MASTER_KEY: OLD })).code,
      ).toBe(0);
      for (const env of [{ HOSTPAY_MASTER_KEY: NEW }, { HOSTPAY_MASTER_KEY_PREVIOUS: OLD }]) {
        const r = await cli(['master-key', 'rotate', '--data-dir', fresh.dir], env);
        expect([r.code, r.stdout, lines(r.stderr)]).toEqual([
          2,
          '',
          [
            'hostpay: master-key rotate needs the new key in HOSTPAY_MASTER_KEY and the old one(s) in HOSTPAY_MASTER_KEY_PREVIOUS (comma-separated); see hostpay master-key rotate --help',
          ],
        ]);
      }
    } finally {
      fresh.remove();
    }
    const help = await cli(['master-key', 'rotate', '--help']);
    expect(help.stdout).toMatch(
      /1\. Deploy every instance with the NEW key.*\n[\s\S]*2\. Run[\s\S]*3\. Remove HOSTPAY_MASTER_KEY_PREVIOUS/,
    );
  });
});
