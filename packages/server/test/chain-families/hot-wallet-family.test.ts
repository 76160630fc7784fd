import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores, tempServices, type TempEnv } from '../helpers.js';

const ctx = { operator: 'chain-families' };

// The hot wallet sends on the chains whose family says so (`hotWallet`), with the same refusal as before.
describeStores('the hot wallet asks the chain family', (dialect) => {
  let env: TempEnv;
  beforeAll(async () => {
    env = await tempServices(dialect);
  });
  afterAll(() => env.cleanup());

  it('refuses a hot wallet on a Bitcoin or TRON chain, naming the family', async () => {
    for (const [symbol, family] of [
      ['BTC', 'btc'],
      ['TRON', 'tron'],
    ] as const)
      await expect(env.services.admin.setHotWallet(symbol, {}, ctx)).rejects.toMatchObject({
        code: 'INVALID_BODY',
        message: `chain ${symbol} is a ${family} chain: hot wallets send on EVM chains only; pay ${family} payouts with the manual sender`,
      });
  });

  it('sets one on an EVM chain', async () => {
    const set = await env.services.admin.setHotWallet('ETH', {}, ctx);
    expect(set.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});
