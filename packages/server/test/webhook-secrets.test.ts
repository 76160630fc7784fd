import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMasterKey } from '../src/crypto/master-key.js';
import { SecretBox } from '../src/crypto/secret-box.js';
import { urlOwner } from '../src/features/webhooks/service.js';
import { describeStores, tempServices, type TempEnv } from './helpers.js';

/** Webhook secrets and URLs are sealed under the master key and follow it through a rotation. */
describeStores('webhook secrets', (dialect) => {
  let env: TempEnv;
  beforeAll(async () => {
    env = await tempServices(dialect);
  });
  afterAll(() => env.cleanup());

  describe('webhook secrets at rest', () => {
    it('are never stored in the clear, and a master key rotation re-seals current and previous secrets and the URL', async () => {
      const ctx = { operator: 'test' };
      const m = await env.services.admin.createMerchant('Sealed Shop', ctx);
      // A public IP literal: checked without DNS, never connected to here. The path carries the
      // merchant's token, the query another.
      const token = 'tok_8f2Kq9Zr41mXw7Lp';
      const url = `https://93.184.216.34/hooks/${token}?sig=qv7Rt2`;
      const created = await env.services.webhooks.endpoints.create(m.id, { url });
      expect(created.url).toBe(url);
      await env.services.webhooks.endpoints.rotateSecret(m.id, created.id);
      const row = await env.services.store.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain('whsec_');
      expect(JSON.stringify(row)).not.toContain(created.secret!.slice('whsec_'.length));
      expect(JSON.stringify(row)).not.toContain(token);
      expect(JSON.stringify(row)).not.toContain('qv7Rt2');
      expect(row.url_shown).toBe('https://93.184.216.34/hooks/tok_…?sig=***');

      const oldMaster = readFileSync(`${env.dataDir}/master.key`, 'utf8').trim();
      const newMaster = randomBytes(32).toString('base64');
      await env.services.close();
      const rotated = await env.reopen({ masterKey: newMaster, masterKeyPrevious: oldMaster });
      const first = await rotated.admin.rotateMasterKey(ctx);
      // The token signing key, and the endpoint's current and previous secrets and its URL.
      expect(first.resealed).toBe(1 + 3);
      await rotated.close();
      env.services = await env.reopen({ masterKey: newMaster });
      const after = await env.services.store.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(new SecretBox(parseMasterKey(newMaster)).open(after.url_sealed, urlOwner(created.id)).toString()).toBe(
        url,
      );
      // Rotating the endpoint's secret opens the current one: it is readable under the new key alone.
      const again = await env.services.webhooks.endpoints.rotateSecret(m.id, created.id);
      expect(again.secret).toMatch(/^whsec_/);
    });
  });
});
