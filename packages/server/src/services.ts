import { join } from 'node:path';
import type { Config } from './config.js';
import { parseMasterKey, resolveMasterKey, type MasterKeySource } from './crypto/master-key.js';
import { SecretBox } from './crypto/secret-box.js';
import { LATEST_VERSION, migrate, schemaVersion } from './store/migrate.js';
import { openSqliteStore } from './store/sqlite.js';
import type { PostgresOptions } from './store/postgres.js';
import type { Store } from './store/store.js';
import { createAdminServices, type AdminServices } from './admin-services.js';
import { Caches } from './cache/caches.js';
import { createMerchantServices } from './merchant-services.js';
import type { MerchantServices } from './auth/ports.js';
import { loadTokenSigningKey } from './features/tokens/signing-key.js';
import { sealPlaintextColumns } from './features/master-key/seal-plaintext.js';
import { instanceIdentity, releaseInstanceId, type InstanceIdentity } from './cluster/instance.js';
import { createSharedState, pgFeedOf, type SharedState } from './cluster/shared-state.js';
import { checkoutService, type CheckoutService } from './features/checkouts/service.js';
import { startExpiryTimer } from './features/checkouts/expiry.js';
import { chainPort } from './features/checkouts/watch-targets.js';
import { paySource, type PaySource } from './features/pay/pay-view.js';
import { createEvents, type Events, type EventsFeatureOptions } from './features/events/feature.js';
import { createWebhooks, type Webhooks, type WebhookFeatureOptions } from './features/webhooks/feature.js';
import { createEvmWatch, type EvmWatch, type EvmWatchFeatureOptions } from './features/evm-watch/feature.js';

export interface Services {
  store: Store;
  checkouts: CheckoutService;
  /** The payer's view of a checkout, for the hosted payment page. */
  pay: PaySource;
  /** Events API, event streams and the wake-ups of commits. */
  events: Events;
  /** Webhook endpoints and the delivery worker (started by createServer). */
  webhooks: Webhooks;
  /** The EVM chain watcher and its operator settings (the watcher is started by createServer). */
  evm: EvmWatch;
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
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'masterKey'> &
    Partial<
      Pick<
        Config,
        | 'masterKeyPrevious'
        | 'redisUrl'
        | 'redisPrefix'
        | 'autoMigrate'
        | 'databaseSchema'
        | 'databasePoolSize'
        | 'databaseTimeoutMs'
        | 'publicUrl'
        | 'sandbox'
        | 'host'
        | 'port'
        | 'webhookLeaseSeconds'
        | 'instanceId'
      >
    >,
  opts: {
    generateMasterKey?: boolean;
    /** A long-running server (`hostpay serve`): its instance id is its own among live processes (cluster/instance.ts). */
    serving?: boolean;
    store?: Store;
    log?: { warn(msg: string): void; info(msg: string): void };
    /** Clock in ms for checkouts (tests move it). */
    now?: () => number;
    /** How often the expiry timer looks for due checkouts, ms (0: no timer; tests call expireDue). Default 1000. */
    expirySweepMs?: number;
    /** Event stream timings (tests). */
    events?: Pick<EventsFeatureOptions, 'streams'>;
    /** Webhook delivery: DNS for the SSRF guard (tests), worker timings. */
    webhooks?: Pick<WebhookFeatureOptions, 'resolve' | 'worker'>;
    /** EVM watcher: DNS for the RPC address checks (tests), watcher timings. */
    evm?: Pick<EvmWatchFeatureOptions, 'resolve' | 'watcher'>;
  } = {},
): Promise<Services> {
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
    // Rows an earlier release wrote in plain text (migration 011), sealed before anything reads them.
    await sealPlaintextColumns(store, box);
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
    const tokenKey = await loadTokenSigningKey(store, box);
    const identity = instanceIdentity(config.instanceId ?? '', config.dataDir, opts.serving ?? false);
    const { key: _secret, ...masterInfo } = master;
    let listenUrl = `http://${config.host ?? '127.0.0.1'}:${config.port ?? 8080}`;
    const checkouts = checkoutService({
      store,
      caches,
      box,
      sandbox: config.sandbox ?? false,
      publicBaseUrl: () => (config.publicUrl ? config.publicUrl.replace(/\/+$/, '') : listenUrl),
      ...(opts.now === undefined ? {} : { now: opts.now }),
    });
    const events = createEvents({
      store,
      ...opts.events,
      ...(store.dialect === 'postgres'
        ? { postgres: { url: config.databaseUrl, schema: config.databaseSchema ?? '' } }
        : {}),
    });
    const webhooks = createWebhooks({
      store,
      events,
      box,
      sandbox: config.sandbox ?? false,
      log,
      ...(opts.now === undefined ? {} : { now: opts.now }),
      ...opts.webhooks,
      worker: { leaseMs: (config.webhookLeaseSeconds ?? 10) * 1000, identity, ...opts.webhooks?.worker },
    });
    const evm = createEvmWatch({
      store,
      box,
      checkouts: chainPort(store.db, checkouts),
      sandbox: config.sandbox ?? false,
      log,
      catalogChanged: () => caches.invalidate({ kind: 'catalog' }),
      ...(opts.now === undefined ? {} : { now: opts.now }),
      ...opts.evm,
    });
    const stopExpiry = startExpiryTimer(checkouts, opts.expirySweepMs ?? 1000, log.warn);
    return {
      store,
      checkouts,
      pay: paySource(store.db, checkouts),
      events,
      webhooks,
      evm,
      setListenUrl(url: string) {
        listenUrl = url;
      },
      shared,
      caches,
      merchant: createMerchantServices(store, box, caches, tokenKey),
      admin: createAdminServices({ store, box, caches, checkouts, webhooks, evm, now: opts.now, identity }),
      masterKey: masterInfo,
      box,
      identity,
      async close() {
        stopExpiry();
        await evm.close();
        await webhooks.close();
        await events.close();
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
