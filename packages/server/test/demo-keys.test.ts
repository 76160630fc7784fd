import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CHAIN_KEYS, DEMO_CONFIRMATIONS } from '../src/demo/chain-keys.js';
import { seedDemo } from '../src/demo/seed.js';
import { readVectorFile } from '../../protocol/test/vectors.js';
import { tempServices, type TempEnv } from './helpers.js';

/** The demo's chain keys are the vectors' test keys, set on the demo chains with one confirmation. */
const vectors = readVectorFile<{ chains: { chain: string; network: string; accountXpub: string; slip132?: string }[] }>(
  'addresses.json',
);

describe('demo chain keys', () => {
  let env: TempEnv;
  beforeAll(async () => {
    env = await tempServices();
  });
  afterAll(() => env.cleanup());

  it('are copies of the mainnet keys of vectors/addresses.json', () => {
    for (const { chain, xpub } of DEMO_CHAIN_KEYS) {
      const v = vectors.chains.find((c) => c.chain === chain && c.network === 'mainnet');
      expect(v, chain).toBeDefined();
      expect([v!.accountXpub, v!.slip132], chain).toContain(xpub);
    }
    expect(DEMO_CHAIN_KEYS.map((k) => k.chain)).toEqual(['BTC', 'ETH', 'TRON']);
  });

  it('are set on the demo chains with one confirmation, once: a later run (or an operator change) is left alone', async () => {
    const { admin } = env.services;
    await seedDemo(env.services, env.dataDir);
    for (const chain of await admin.listChains()) {
      expect(chain.accountKey, chain.symbol).not.toBeNull();
      expect(chain.confirmationsRequired).toBe(DEMO_CONFIRMATIONS);
      const v = vectors.chains.find((c) => c.chain === chain.symbol && c.network === 'mainnet')!;
      expect((await admin.getChainXpub(chain.symbol)).xpub).toBe(v.accountXpub);
    }
    await admin.updateChain('BTC', { confirmationsRequired: 3 }, { operator: 'test' });
    const again = await seedDemo(env.services, env.dataDir);
    expect(again.created).toBe(false);
    expect((await admin.getChain('BTC')).confirmationsRequired).toBe(3);
    const actions = (await admin.listAudit({ operator: 'demo', objectType: 'chain' }, { limit: 200 })).items.map(
      (e) => e.action,
    );
    // Keys and confirmations per chain, then each chain's explorer template (demo/explorers.ts):
    // all from the first run; the second wrote nothing.
    expect(actions).toEqual([
      'chain.set_xpub',
      'chain.update',
      'chain.set_xpub',
      'chain.update',
      'chain.set_xpub',
      'chain.update',
      'chain.update',
      'chain.update',
      'chain.update',
    ]);
  });
});
