import { createServices, loadConfig, type Services } from '@hostpay/server';
import { buildApp, startServer } from '../src/server-http.js';
import { tempDir } from './helpers.js';

export interface AdminServer {
  url: string;
  services: Services;
  close(): Promise<void>;
}

/**
 * The real hostpay server with its admin API: embedded SQLite in a temp dir (no demo data),
 * listening on a random local port. `adminTokens` is HOSTPAY_ADMIN_TOKENS (`name:token,…`);
 * empty: the admin API is disabled.
 */
export async function startAdminServer(adminTokens: string): Promise<AdminServer> {
  const data = tempDir();
  // Bad-token cases fail authentication from 127.0.0.1 on purpose: lift the per-address limit.
  const config = loadConfig({}, { dataDir: data.dir, logLevel: 'silent', adminTokens, authFailureLimitPerMinute: 1_000_000 });
  const services = await createServices(config, { generateMasterKey: true });
  try {
    const app = await buildApp({ config, services: services.merchant, admin: services.admin, logger: false });
    const running = await startServer(app, { host: '127.0.0.1', port: 0, handleSignals: false });
    return {
      url: running.url,
      services,
      close: async () => {
        await running.close();
        await services.close();
        data.remove();
      },
    };
  } catch (err) {
    await services.close();
    data.remove();
    throw err;
  }
}
