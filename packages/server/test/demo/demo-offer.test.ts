import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { seedDemoRates } from '../../src/demo/rates.js';
import { seedDemo, type DemoCredentials } from '../../src/demo/seed.js';
import { DIALECTS, tempServices, type Dialect, type TempEnv } from '../helpers.js';
import { checkoutCall, resultOf } from '../http-helpers/checkouts.js';
import type { HttpFixture, TestKey } from '../http-helpers/fixture.js';

const CHECKOUTS = '/api/v1/cp/psp/hosted-pay';
/** Issue 27, item 6: what the demo offers an EUR or USD checkout. */
const OFFERED = ['BTC on BTC', 'ETH on ETH', 'TRX on TRON', 'USDT on ETH', 'USDT on TRON'];

interface Option {
  asset: string;
  chain: string;
  amountDue: string;
  rate: string;
  rateSource: string | null;
  rateAt: string | null;
  netAmount: string;
}

/**
 * The demo as `hostpay serve --demo` seeds it (merchant, wallets, chain keys, fees, then the
 * `demo` rate source refreshed once), with nothing added by the test: an EUR and a USD checkout
 * offer BTC, ETH, USDT on ETH and TRON, and TRX, each priced from the demo source (USDT from the
 * demo's pinned rate).
 */
describe.each(DIALECTS)('the demo offers on %s', (dialect: Dialect) => {
  let env: TempEnv;
  let app: FastifyInstance;
  let key: TestKey;
  let demo: DemoCredentials;
  beforeAll(async () => {
    env = await tempServices(dialect, { expirySweepMs: 0 }, { sandbox: true });
    demo = await seedDemo(env.services, env.dataDir);
    await seedDemoRates(env.services);
    const config = loadConfig({}, { dataDir: env.dataDir, logLevel: 'silent', sandbox: true });
    app = await buildApp({
      config,
      services: env.services.merchant,
      admin: env.services.admin,
      features: env.services,
      logger: false,
    });
    await app.ready();
    key = { apiKey: demo.apiKey, apiSecret: demo.apiSecret, merchantId: demo.merchantId };
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it.each(['EUR', 'USD'])(
    'a %s checkout: BTC, ETH, TRX, USDT on ETH and TRON, each with its quote',
    async (currency) => {
      const fx = { app, now: Date.now } as unknown as HttpFixture;
      const before = Date.now();
      const res = await checkoutCall(fx, key, 'POST', CHECKOUTS, {
        amount: 100,
        currency,
        orderId: `demo-${currency}`,
      });
      expect(res.statusCode, res.body).toBe(201);
      const options = resultOf<{ paymentOptions: Option[] }>(res).paymentOptions;
      expect(options.map((o) => `${o.asset} on ${o.chain}`).sort()).toEqual(OFFERED);
      // Each option's quote is the stored rate it was priced from: the demo feed's (fetched at its
      // refresh), or for USDT the demo's pinned currency/USDT rate.
      const rates = await env.services.admin.listRates();
      for (const o of options) {
        const name = `${o.asset} on ${o.chain}`;
        const stored = rates.find(
          (r) => (r.base === o.asset && r.quote === currency) || (r.base === currency && r.quote === o.asset),
        );
        expect(stored, name).toBeDefined();
        expect(stored!.pinned, name).toBe(o.asset === 'USDT');
        // The feed's rates name the demo source; the pins their own text, so a merchant tells them apart.
        expect(o.rateSource, name).toBe(o.asset === 'USDT' ? 'demo-pin' : 'demo');
        expect(o.rateAt, name).toBe(stored!.fetchedAt);
        if (o.asset !== 'USDT') expect(Date.parse(o.rateAt!), name).toBeGreaterThanOrEqual(before - 60_000);
        expect(Number(o.netAmount), name).toBeGreaterThan(0);
      }
    },
  );
});
