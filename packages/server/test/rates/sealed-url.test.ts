import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMasterKey } from '../../src/crypto/master-key.js';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { scrub, sourceOwner } from '../../src/features/rates/source-url.js';
import { tempServices, type TempEnv } from '../helpers.js';

/** A rate source's base URL (a proxy's may carry a key) is sealed, shown masked, re-sealed by a rotation, never quoted. */
let env: TempEnv;
beforeAll(async () => {
  env = await tempServices('sqlite');
});
afterAll(() => env.cleanup());

describe('rate source URLs at rest', () => {
  const key = 'aa11bb22cc33dd44ee55ff6677889900';
  const url = `https://93.184.216.34/k/${key}`;

  it('are never stored or shown in the clear, and a master key rotation re-seals them', async () => {
    const ctx = { operator: 'test' };
    const set = await env.services.admin.setRateSource(
      'proxy',
      { kind: 'kraken', baseUrl: url, pairs: ['BTC/EUR'] },
      ctx,
    );
    expect(set.baseUrl).toBe('https://93.184.216.34/k/aa11…');
    const row = await env.services.store.db.selectFrom('rate_sources').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key);
    const audit = await env.services.store.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'rate_source.set')
      .execute();
    expect(JSON.stringify(audit)).not.toContain(key);

    const oldMaster = readFileSync(`${env.dataDir}/master.key`, 'utf8').trim();
    const newMaster = randomBytes(32).toString('base64');
    await env.services.close();
    const rotated = await env.reopen({ masterKey: newMaster, masterKeyPrevious: oldMaster });
    expect((await rotated.admin.rotateMasterKey(ctx)).resealed).toBe(1 + 1); // the token signing key and the URL
    await rotated.close();
    env.services = await env.reopen({ masterKey: newMaster });
    const stored = await env.services.store.db.selectFrom('rate_sources').selectAll().executeTakeFirstOrThrow();
    expect(
      new SecretBox(parseMasterKey(newMaster), []).open(stored.base_url_sealed!, sourceOwner('proxy')).toString('utf8'),
    ).toBe(url);
    // Kept when a later change leaves it out.
    const again = await env.services.admin.setRateSource('proxy', { kind: 'kraken', pairs: ['ETH/EUR'] }, ctx);
    expect(again.baseUrl).toBe('https://93.184.216.34/k/aa11…');
  });

  it('error messages name the masked URL only', () => {
    const message = scrub(`request to ${url}/0/public/Ticker failed (${key})`, url);
    expect(message).not.toContain(key);
    expect(message).toContain('https://93.184.216.34/k/aa11…');
  });
});
