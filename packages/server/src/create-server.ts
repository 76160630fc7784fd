import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { startServer, type ListenOptions, type RunningServer } from './server.js';
import { createServices, type Services } from './services.js';
import { REGISTERED_FEATURES } from './features/index.js';
import type { StartOptions } from './feature-kit/feature.js';

/** `StartOptions`: the features' own switches (a feature's `startOption`), e.g. `webhookWorker: false`. */
export interface CreateServerOptions extends StartOptions {
  /** Sandbox only: may create <dataDir>/master.key when no master key is configured. */
  generateMasterKey?: boolean;
  /** `hostpay serve`: a long-running server, whose instance id no other live server may share. */
  serving?: boolean;
  /** false: no logs; an object: pino options (e.g. `{ stream }`) merged over ours. */
  logger?: boolean | object;
  /** Where the services report events such as Redis lost and back, before the app's logger exists. */
  log?: { warn(message: string): void; info(message: string): void };
  /** Clock in ms (tests move it). */
  now?: () => number;
  /** Operator tokens by name, instead of the configured ones (the CLI's in-process admin API). */
  operatorTokens?: Map<string, string>;
  /** Features whose background work is not started (tests drive it by hand), by name. */
  notStarted?: readonly string[];
  /**
   * false: no feature's background work starts (no watcher, rate feed, sender or webhook worker).
   * The CLI's local store commands run one operation and exit: they must never fetch a rate feed
   * or send anything on the operator's machine.
   */
  background?: boolean;
}

export interface HostpayServer {
  app: FastifyInstance;
  services: Services;
  /** Listens on config.host:config.port with production timeouts and signal handling. */
  listen(options?: Partial<ListenOptions>): Promise<RunningServer>;
  /** Closes the app, then the services (store, Redis) through the app's onClose hook. */
  close(): Promise<void>;
}

/**
 * The composition root: store, services and HTTP app from one configuration, wired the one way
 * the CLI (`hostpay serve`), the Docker image, tests and the bench all run them.
 */
export async function createServer(config: Config, options: CreateServerOptions = {}): Promise<HostpayServer> {
  const services = await createServices(config, {
    generateMasterKey: options.generateMasterKey ?? false,
    serving: options.serving ?? false,
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  let app: FastifyInstance;
  try {
    app = await buildApp({
      config,
      services: services.merchant,
      admin: services.admin,
      features: services,
      rateLimiter: services.shared.rateLimiter,
      redisState: () => services.shared.redis,
      storeDialect: services.store.dialect,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.operatorTokens === undefined ? {} : { operatorTokens: options.operatorTokens }),
    });
  } catch (err) {
    await services.close();
    throw err;
  }
  app.addHook('onClose', async () => services.close());
  const notStarted = new Set([
    ...(options.notStarted ?? []),
    ...REGISTERED_FEATURES.filter((f) => f.startOption !== undefined && options[f.startOption] === false).map(
      (f) => f.name,
    ),
  ]);
  if (options.background !== false) {
    for (const feature of REGISTERED_FEATURES) if (!notStarted.has(feature.name)) feature.start?.(services);
  }
  return {
    app,
    services,
    async listen(listen = {}) {
      const running = await startServer(app, {
        host: config.host,
        port: config.port,
        metrics: { port: config.metricsPort, host: config.metricsHost },
        ...listen,
      });
      services.setListenUrl(running.url);
      return running;
    },
    close: () => app.close(),
  };
}
