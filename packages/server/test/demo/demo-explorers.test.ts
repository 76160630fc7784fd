import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { seedDemoCheckouts } from '../../src/demo/checkouts.js';
import { DEMO_EXPLORERS, seedDemoExplorers } from '../../src/demo/explorers.js';
import { seedDemo } from '../../src/demo/seed.js';
import { DIALECTS, tempServices, type Dialect, type TempEnv } from '../helpers.js';

/**
 * Issue 46, item 6: the demo's chains link transaction hashes to a block explorer, so a demo
 * receipt shows what a configured installation shows.
 */
describe.each(DIALECTS)('demo explorers on %s', (dialect: Dialect) => {
  let env: TempEnv;
  let app: FastifyInstance;
  let settled: string[];
  beforeAll(async () => {
    env = await tempServices(dialect, { expirySweepMs: 0 }, { sandbox: true });
    const demo = await seedDemo(env.services, env.dataDir);
    settled = (await seedDemoCheckouts(env.services, demo.merchantId)).slice(-2);
    const config = loadConfig({}, { dataDir: env.dataDir, logLevel: 'silent', sandbox: true });
    app = await buildApp({
      config,
      services: env.services.merchant,
      admin: env.services.admin,
      features: env.services,
      logger: false,
    });
    await app.ready();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('every demo chain has its mainnet explorer', async () => {
    const chains = await env.services.admin.listChains();
    const demo = chains.filter((c) => DEMO_EXPLORERS[c.symbol] !== undefined);
    expect(demo.map((c) => c.symbol).sort()).toEqual(['BTC', 'ETH', 'TRON']);
    expect(Object.fromEntries(demo.map((c) => [c.symbol, c.explorerTxUrl]))).toEqual({
      BTC: 'https://mempool.space/tx/{tx}',
      ETH: 'https://etherscan.io/tx/{tx}',
      TRON: 'https://tronscan.org/#/transaction/{tx}',
    });
  });

  it('a demo receipt links each transaction hash to the explorer', async () => {
    for (const id of settled) {
      const res = await app.inject({ method: 'GET', url: `/pay/${id}/receipt` });
      expect(res.statusCode, res.body).toBe(200);
      const tx = `demo_${id}_USDT`;
      expect(res.body).toContain(
        `<a href="https://tronscan.org/#/transaction/${tx}" rel="noopener noreferrer" target="_blank"><code`,
      );
      expect(res.body).toContain(`>${tx}</code>`);
    }
  });

  it("an operator's template is kept when the demo starts again", async () => {
    const op = { operator: 'test' };
    await env.services.admin.updateChain('TRON', { explorerTxUrl: 'https://explorer.example/tx/{tx}' }, op);
    await env.services.admin.updateChain('ETH', { explorerTxUrl: null }, op);
    await seedDemo(env.services, env.dataDir);
    expect((await env.services.admin.getChain('TRON')).explorerTxUrl).toBe('https://explorer.example/tx/{tx}');
    expect((await env.services.admin.getChain('ETH')).explorerTxUrl).toBe('https://etherscan.io/tx/{tx}');
  });
});

describe('demo explorers on testnet chains', () => {
  it("each demo chain on testnet gets its testnet's explorer; on regtest none", async () => {
    const env = await tempServices('sqlite', { expirySweepMs: 0 }, { sandbox: true });
    try {
      const op = { operator: 'test' };
      // Before any key: the network type may still change (as an operator sets up a testnet demo).
      await env.services.admin.updateChain('BTC', { networkType: 'testnet' }, op);
      await env.services.admin.updateChain('ETH', { networkType: 'testnet' }, op);
      await env.services.admin.updateChain('TRON', { networkType: 'regtest' }, op);
      await seedDemoExplorers(env.services);
      const chains = await env.services.admin.listChains();
      expect(Object.fromEntries(chains.map((c) => [c.symbol, c.explorerTxUrl]))).toMatchObject({
        BTC: 'https://mempool.space/testnet4/tx/{tx}',
        ETH: 'https://sepolia.etherscan.io/tx/{tx}',
        TRON: null,
      });
      await env.services.admin.updateChain('TRON', { networkType: 'testnet' }, op);
      await seedDemoExplorers(env.services);
      expect((await env.services.admin.getChain('TRON')).explorerTxUrl).toBe(
        'https://nile.tronscan.org/#/transaction/{tx}',
      );
    } finally {
      await env.cleanup();
    }
  });
});
