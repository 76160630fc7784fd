import { createServices, loadConfig, seedDemo, type DemoCredentials } from '@hostpay/server';
import { buildApp, startServer } from '../src/server-http.js';
import { tempDir } from './helpers.js';

export interface RealServer {
  url: string;
  demo: DemoCredentials;
  close(): Promise<void>;
}

/**
 * The real hostpay server in the test process: embedded SQLite in a temp dir, the demo merchant
 * seeded, listening on a random local port. Spawned CLI processes talk to it over HTTP.
 */
export async function startRealServer(): Promise<RealServer> {
  const data = tempDir();
  // Wrong-secret cases fail authentication from 127.0.0.1 on purpose: lift the per-address limit.
  const config = loadConfig({}, { dataDir: data.dir, logLevel: 'silent', authFailureLimitPerMinute: 1_000_000 });
  const services = await createServices(config, { generateMasterKey: true });
  try {
    const demo = await seedDemo(services, data.dir);
    const app = await buildApp({ config, services: services.merchant, logger: false });
    const running = await startServer(app, { host: '127.0.0.1', port: 0, handleSignals: false });
    return {
      url: running.url,
      demo,
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
