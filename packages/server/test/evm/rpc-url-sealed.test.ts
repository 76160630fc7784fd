import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMasterKey } from '../../src/crypto/master-key.js';
import { SecretBox } from '../../src/crypto/secret-box.js';
import { rpcOwner } from '../../src/features/chain-watch/node-url.js';
import { tempServices, type TempEnv } from '../helpers.js';

/** The node URL of a watch is sealed under the master key and follows it through a rotation. */
let env: TempEnv;
beforeAll(async () => {
  env = await tempServices('sqlite');
});
afterAll(() => env.cleanup());

describe('EVM node URLs at rest', () => {
  it('are never stored in the clear, and a master key rotation re-seals them', async () => {
    const ctx = { operator: 'test' };
    const key = 'aa11bb22cc33dd44ee55ff6677889900';
    await env.services.admin.setChainWatch('ETH', { rpcUrl: `https://93.184.216.34/v3/${key}` }, ctx);
    const row = await env.services.store.db.selectFrom('chain_watches').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key);

    const oldMaster = readFileSync(`${env.dataDir}/master.key`, 'utf8').trim();
    const newMaster = randomBytes(32).toString('base64');
    await env.services.close();
    const rotated = await env.reopen({ masterKey: newMaster, masterKeyPrevious: oldMaster });
    expect((await rotated.admin.rotateMasterKey(ctx)).resealed).toBe(1 + 1); // the token signing key and the node URL
    await rotated.close();
    env.services = await env.reopen({ masterKey: newMaster });
    const stored = await env.services.store.db.selectFrom('chain_watches').selectAll().executeTakeFirstOrThrow();
    expect(
      new SecretBox(parseMasterKey(newMaster), [])
        .open(stored.rpc_url_sealed, rpcOwner(stored.chain_id))
        .toString('utf8'),
    ).toBe(`https://93.184.216.34/v3/${key}`);
    // Kept when a later change leaves it out (opened under the new key alone).
    expect((await env.services.admin.setChainWatch('ETH', { pollIntervalMs: 2000 }, ctx)).rpcUrl).toBe(
      'https://93.184.216.34/v3/***',
    );
  });
});
