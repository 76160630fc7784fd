import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createServices,
  loadConfig,
  seedDemo,
  type DemoCredentials,
  type MerchantServices,
  type Services,
} from '@hostpay/server';
// The HTTP layer is its own entry point (@hostpay/server/app), as the CLI's serve uses it.
import { buildApp, startServer } from '@hostpay/server/app';
import { configureChains } from '../../../server/test/http-helpers/checkouts.js';

export interface RealServer {
  url: string;
  services: Services;
  demo: DemoCredentials;
  /** Moves the server's clock (token expiry, key expiry); 0 by default. */
  shiftClock(ms: number): void;
  close(): Promise<void>;
}

export interface RealServerOptions {
  /** Wraps the merchant services, e.g. to make the store fail. */
  wrap?: (services: MerchantServices) => MerchantServices;
  /**
   * A sandbox with the checkout routes (and the Idempotency-Key store they use), the demo chains
   * given the address vectors' keys and one required confirmation.
   */
  checkouts?: boolean;
}

/**
 * The real hostpay server over an embedded SQLite store in a temp dir, seeded with the demo
 * merchant, listening on a random local port.
 */
export async function startRealServer(options: RealServerOptions = {}): Promise<RealServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-client-e2e-'));
  // Many deliberate authentication failures come from 127.0.0.1: lift the per-address limit.
  const config = loadConfig(
    {},
    { dataDir, logLevel: 'silent', authFailureLimitPerMinute: 1_000_000, sandbox: options.checkouts === true },
  );
  const services = await createServices(config, { generateMasterKey: true });
  const demo = await seedDemo(services, dataDir);
  if (options.checkouts) await configureChains(services);
  const checkoutDeps = options.checkouts ? { admin: services.admin } : {};
  let shift = 0;
  const merchant = options.wrap ? options.wrap(services.merchant) : services.merchant;
  const app = await buildApp({
    config,
    services: merchant,
    features: services,
    logger: false,
    now: () => Date.now() + shift,
    ...checkoutDeps,
  });
  const running = await startServer(app, { host: '127.0.0.1', port: 0, handleSignals: false, settleMemory: false });
  services.setListenUrl(running.url); // checkout page links name the real port, as hostpay serve does
  return {
    url: running.url,
    services,
    demo,
    shiftClock: (ms) => {
      shift = ms;
    },
    close: async () => {
      await running.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
