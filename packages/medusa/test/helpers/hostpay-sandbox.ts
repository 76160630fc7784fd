import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCOPES } from '@hostpay/protocol';
import { createServices, loadConfig, seedDemo, type Services } from '@hostpay/server';
import { buildApp, startServer } from '@hostpay/server/app';
import { configureChains } from '../../../server/test/http-helpers/checkouts.js';

export interface Sandbox {
  url: string;
  services: Services;
  merchantId: string;
  /** A key with every scope (payouts:write included, for refunds). */
  apiKey: string;
  apiSecret: string;
  close(): Promise<void>;
}

/**
 * The real hostpay server in sandbox mode over an embedded SQLite store in a temp dir, seeded with
 * the demo merchant, on a random local port, with its webhook delivery worker and checkout expiry
 * timer running as under `hostpay serve`.
 */
export async function startSandbox(): Promise<Sandbox> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-medusa-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', sandbox: true, authFailureLimitPerMinute: 1_000_000 });
  const services = await createServices(config, { generateMasterKey: true });
  const demo = await seedDemo(services, dataDir);
  await configureChains(services);
  const app = await buildApp({
    config,
    services: services.merchant,
    features: services,
    logger: false,
    admin: services.admin,
  });
  const running = await startServer(app, { host: '127.0.0.1', port: 0, handleSignals: false, settleMemory: false });
  services.setListenUrl(running.url);
  services.webhooks.worker.start();
  const key = await services.admin.createApiKey(demo.merchantId, { scopes: [...SCOPES] }, { operator: 'test' });
  return {
    url: running.url,
    services,
    merchantId: demo.merchantId,
    apiKey: key.apiKey,
    apiSecret: key.apiSecret,
    close: async () => {
      await running.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A webhook endpoint for the checkout events at `url`; answers its whsec_ secret. */
export async function addWebhookEndpoint(sandbox: Sandbox, url: string): Promise<string> {
  const endpoint = await sandbox.services.webhooks.endpoints.create(sandbox.merchantId, {
    url,
    description: 'Medusa store',
    enabledEvents: [
      'checkout.underpaid',
      'checkout.processing',
      'checkout.settled',
      'checkout.expired',
      'checkout.canceled',
      'checkout.needs_review',
    ],
  });
  if (!endpoint.secret) throw new Error('a new endpoint shows its secret');
  return endpoint.secret;
}

/**
 * Moves a checkout's expiry into the past (test set-up: waiting out the 5-minute minimum is not
 * an option); the server's own expiry timer then expires it and sends `checkout.expired`.
 */
export async function expireSoon(sandbox: Sandbox, checkoutId: string): Promise<void> {
  await sandbox.services.store.db
    .updateTable('checkouts')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', checkoutId)
    .execute();
}
