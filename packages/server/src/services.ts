import { join } from 'node:path';
import type { Config } from './config.js';
import { parseMasterKey, resolveMasterKey, type MasterKeySource } from './crypto/master-key.js';
import { SecretBox } from './crypto/secret-box.js';
import { LATEST_VERSION, migrate, schemaVersion } from './migrations.js';
import { openSqliteStore } from './store/sqlite.js';
import type { PostgresOptions } from './store/postgres.js';
import type { Store } from './store/store.js';
import { createAdminServices, type AdminServices } from './admin-services.js';
import { Caches } from './cache/caches.js';
import { createMerchantServices } from './merchant-services.js';
import type { MerchantServices } from './auth/ports.js';
import { instanceIdentity, releaseInstanceId, type InstanceIdentity } from './cluster/instance.js';
import { createSharedState, pgFeedOf, type SharedState } from './cluster/shared-state.js';
import { usedSignatures } from './cluster/used-signatures.js';
import {
  KERNEL_PROVISIONS,
  type AnyFeature,
  type FeatureOptions,
  type FeatureProvisions,
  type KernelName,
  type Provisions,
  type ServicesConfig,
} from './feature-kit/feature.js';
import { orderFeatures } from './feature-kit/registry.js';
import { contributionLists } from './feature-kit/contributions.js';
import { REGISTERED_FEATURES } from './features/index.js';

/** The kernel's services and what every registered feature provides (checkouts, events, webhooks, …). */
export interface Services extends FeatureProvisions {
  store: Store;
  /** Where checkout page links point when HOSTPAY_PUBLIC_URL is not set: the address the server listens on. */
  setListenUrl(url: string): void;
  shared: SharedState;
  merchant: MerchantServices;
  admin: AdminServices;
  caches: Caches;
  masterKey: Omit<MasterKeySource, 'key'>;
  /** Seals and opens what the store keeps sealed (secrets, xpubs, webhook and RPC URLs) under the master key. */
  box: SecretBox;
  /** Who this process is in the leases it holds (cluster/instance.ts). */
  identity: InstanceIdentity;
  close(): Promise<void>;
}

/** The SQLite file a configuration points at. */
export function sqliteFile(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (config.databaseUrl === '') return join(config.dataDir, 'hostpay.db');
  if (config.databaseUrl.startsWith('sqlite:')) return config.databaseUrl.slice('sqlite:'.length);
  throw new Error(
    `HOSTPAY_DATABASE_URL ${JSON.stringify(redactUrl(config.databaseUrl))} is not supported: use empty (embedded SQLite), sqlite:<path> or postgres://…`,
  );
}

/** A URL with its password hidden, for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
}

/** The store a configuration names: PostgreSQL for postgres:// URLs, else embedded SQLite. */
export async function openStore(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> &
    Partial<Pick<Config, 'databaseSchema' | 'databasePoolSize' | 'databaseTimeoutMs'>>,
): Promise<Store> {
  if (/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    const timeout = config.databaseTimeoutMs ?? 2000;
    const opts: PostgresOptions = {
      max: config.databasePoolSize ?? 10,
      connectTimeoutMs: timeout,
      statementTimeoutMs: timeout * 2,
    };
    if (config.databaseSchema) opts.schema = config.databaseSchema;
    // Loaded only when configured: pg is ~50 ms of every start-up that does not use it.
    const { openPostgresStore } = await import('./store/postgres.js');
    return openPostgresStore(config.databaseUrl, opts);
  }
  return openSqliteStore(sqliteFile(config));
}

/**
 * Opens the store, applies pending migrations and wires the services over it.
 * `generateMasterKey`: allowed to create `<dataDir>/master.key` when none is configured.
 */
export async function createServices(
  config: ServicesConfig,
  opts: {
    generateMasterKey?: boolean;
    /** A long-running server (`hostpay serve`): its instance id is its own among live processes (cluster/instance.ts). */
    serving?: boolean;
    store?: Store;
    log?: { warn(msg: string): void; info(msg: string): void };
    /** Clock in ms for checkouts (tests move it). */
    now?: () => number;
    /** The features to run; default: every registered one (features/index.ts). */
    features?: readonly AnyFeature[];
  } & FeatureOptions = {},
): Promise<Services> {
  // Before anything is opened: a feature whose needs nobody provides is a start-up error.
  const features = orderFeatures(opts.features ?? REGISTERED_FEATURES);
  const master = resolveMasterKey(config.masterKey, config.dataDir, opts.generateMasterKey ?? false);
  const store = opts.store ?? (await openStore(config));
  try {
    if (config.autoMigrate !== false) await migrate(store);
    else if ((await schemaVersion(store)) < LATEST_VERSION) {
      throw new Error(
        `the store needs migrations (schema v${await schemaVersion(store)}, this version needs v${LATEST_VERSION}): run \`hostpay migrate\` or set HOSTPAY_AUTO_MIGRATE=true`,
      );
    }
    const previous = (config.masterKeyPrevious ?? '')
      .split(',')
      .filter((k) => k.trim() !== '')
      .map(parseMasterKey);
    const box = new SecretBox(master.key, previous);
    // Before any feature is made: what a feature brings the store to (features/*/feature.ts `prepare`).
    for (const feature of features) await feature.prepare?.({ store, box });
    const log = opts.log ?? { warn: (m: string) => process.emitWarning(m), info: () => undefined };
    let caches: Caches | undefined;
    const shared = await createSharedState(
      config.redisUrl ?? '',
      config.redisPrefix ?? 'hostpay:',
      { onRemoteInvalidation: (scope) => caches?.invalidateLocal(scope), warn: log.warn, info: log.info },
      pgFeedOf(store, config.databaseUrl, config.databaseSchema),
    );
    caches = new Caches(() => store.externalVersion(), {
      publish: (scope) => shared.publish(scope),
      // A cache is only as fresh as what tells it about other processes' writes: SQLite's
      // data_version, or the change feed (Redis, else PostgreSQL LISTEN/NOTIFY). While the feed
      // is down, reads go to the store.
      enabled: () => shared.cachesSafe,
    });
    // What features read from the store before any is made (features/*/feature.ts `load`).
    const loaded: Partial<Provisions> = {};
    for (const feature of features) Object.assign(loaded, await feature.load?.({ store, box }));
    const identity = instanceIdentity(config.instanceId ?? '', config.dataDir, opts.serving ?? false);
    const { key: _secret, ...masterInfo } = master;
    let listenUrl = `http://${config.host ?? '127.0.0.1'}:${config.port ?? 8080}`;
    const kernel: Pick<Provisions, KernelName> = {
      config,
      store,
      box,
      caches,
      log,
      now: opts.now,
      identity,
      publicBaseUrl: () => (config.publicUrl ? config.publicUrl.replace(/\/+$/, '') : listenUrl),
      options: opts,
    };
    // Filled feature by feature: each create sees the kernel and what the features before it made.
    const provisions = { ...loaded, ...kernel } as Provisions;
    const closers: (() => Promise<void> | void)[] = [];
    const closeFeatures = async () => {
      for (const close of closers.splice(0).reverse()) await close();
    };
    let admin: AdminServices;
    let merchant: MerchantServices;
    const contributions = contributionLists();
    try {
      const consumed = features.map((feature) => contributions.of(feature));
      features.forEach((feature, i) => {
        if (feature.create === undefined) return;
        const { close, ...made } = feature.create(provisions, consumed[i]!);
        Object.assign(provisions, made);
        if (close !== undefined) closers.push(close);
      });
      // Once every feature is made: each one's contributions, from what it needs and provides.
      for (const feature of features) contributions.collect(feature, provisions);
      contributions.seal();
      admin = createAdminServices(provisions, features);
      merchant = createMerchantServices(
        provisions,
        usedSignatures(store, (key, ttlMs) => shared.claimOnce(key, ttlMs), opts.now ?? Date.now),
        features,
      );
    } catch (err) {
      await closeFeatures();
      await shared.close();
      releaseInstanceId(identity);
      throw err;
    }
    const kernelNames = new Set<string>(KERNEL_PROVISIONS);
    const provided = Object.fromEntries(
      Object.entries(provisions).filter(([name]) => !kernelNames.has(name)),
    ) as FeatureProvisions;
    return {
      ...provided,
      store,
      setListenUrl(url: string) {
        listenUrl = url;
      },
      shared,
      caches,
      merchant,
      admin,
      masterKey: masterInfo,
      box,
      identity,
      async close() {
        await closeFeatures();
        await shared.close();
        await store.close();
        releaseInstanceId(identity);
      },
    };
  } catch (err) {
    // The services own the store from here on: a failed start must not leak its connections.
    await store.close();
    throw err;
  }
}

export type { MerchantServices, ApiKeyAuth } from './auth/ports.js';
export type * from './admin-services.js';
