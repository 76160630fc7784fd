import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices, type Services } from '../src/services/index.js';

/** Real services over a fresh SQLite store in a temp dir, removed by `cleanup`. */
export async function tempServices(): Promise<{ services: Services; dataDir: string; cleanup: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-test-'));
  const services = await createServices({ dataDir, databaseUrl: '', masterKey: '' }, { generateMasterKey: true });
  return {
    services,
    dataDir,
    cleanup: async () => {
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
