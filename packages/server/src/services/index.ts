import { join } from 'node:path';
import type { Config } from '../config.js';
import { resolveMasterKey, type MasterKeySource } from '../crypto/master-key.js';
import { SecretBox } from '../crypto/secret-box.js';
import { migrate } from '../store/migrate.js';
import { openSqliteStore } from '../store/sqlite.js';
import type { Store } from '../store/store.js';
import { createAdminServices, type AdminServices } from './admin.js';
import { Caches } from './caches.js';
import { createMerchantServices } from './merchant-services.js';
import type { MerchantServices } from './types.js';

export interface Services {
  store: Store;
  merchant: MerchantServices;
  admin: AdminServices;
  caches: Caches;
  masterKey: Omit<MasterKeySource, 'key'>;
  close(): Promise<void>;
}

/** The SQLite file a configuration points at. */
export function sqliteFile(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (config.databaseUrl === '') return join(config.dataDir, 'hostpay.db');
  if (config.databaseUrl.startsWith('sqlite:')) return config.databaseUrl.slice('sqlite:'.length);
  throw new Error(`HOSTPAY_DATABASE_URL ${JSON.stringify(config.databaseUrl.replace(/\/\/[^@]*@/, '//***@'))} is not supported yet: use empty (embedded SQLite) or sqlite:<path>`);
}

/**
 * Opens the store, applies pending migrations and wires the services over it.
 * `generateMasterKey`: allowed to create `<dataDir>/master.key` when none is configured.
 */
export async function createServices(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'masterKey'>,
  opts: { generateMasterKey?: boolean; store?: Store } = {},
): Promise<Services> {
  const master = resolveMasterKey(config.masterKey, config.dataDir, opts.generateMasterKey ?? false);
  const store = opts.store ?? openSqliteStore(sqliteFile(config));
  try {
    await migrate(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  const box = new SecretBox(master.key);
  const caches = new Caches(() => store.externalVersion());
  const { key: _secret, ...masterInfo } = master;
  return {
    store,
    caches,
    merchant: createMerchantServices(store, box, caches),
    admin: createAdminServices(store, box, caches),
    masterKey: masterInfo,
    close: () => store.close(),
  };
}

export type { MerchantServices, ApiKeyAuth } from './types.js';
export type { AdminServices, CreatedApiKey } from './admin.js';
