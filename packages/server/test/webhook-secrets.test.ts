import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempServices, type TempEnv } from './helpers.js';

/** Webhook secrets are sealed under the master key and follow it through a rotation. */
let env: TempEnv;
beforeAll(async () => {
  env = await tempServices('sqlite');
});
afterAll(() => env.cleanup());

describe('webhook secrets at rest', () => {
  it('are never stored in the clear, and a master key rotation re-seals current and previous secrets', async () => {
    const ctx = { operator: 'test' };
    const m = await env.services.admin.createMerchant('Sealed Shop', ctx);
    // A public IP literal: checked without DNS, never connected to here.
    const created = await env.services.webhooks.endpoints.create(m.id, { url: 'https://93.184.216.34/hooks' });
    await env.services.webhooks.endpoints.rotateSecret(m.id, created.id);
    const row = await env.services.store.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('whsec_');
    expect(JSON.stringify(row)).not.toContain(created.secret!.slice('whsec_'.length));

    const oldMaster = readFileSync(`${env.dataDir}/master.key`, 'utf8').trim();
    const newMaster = randomBytes(32).toString('base64');
    await env.services.close();
    const rotated = await env.reopen({ masterKey: newMaster, masterKeyPrevious: oldMaster });
    const first = await rotated.admin.rotateMasterKey(ctx);
    expect(first.resealed).toBe(1 + 2); // the token signing key, and the endpoint's current and previous secrets
    await rotated.close();
    env.services = await env.reopen({ masterKey: newMaster });
    // Rotating the endpoint's secret opens the current one: it is readable under the new key alone.
    const again = await env.services.webhooks.endpoints.rotateSecret(m.id, created.id);
    expect(again.secret).toMatch(/^whsec_/);
  });
});
