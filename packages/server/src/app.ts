import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { ADMIN_PREFIX, adminDisabledRoutes, adminRoutes } from './admin/scope.js';
import { createAuthHooks } from './auth/authenticate.js';
import { signatureV1Notice } from './auth/signature-deprecation.js';
import { createOperatorAuth } from './auth/operator-auth.js';
import './auth/principal.js';
import { MemoryRateLimiter, type RateLimiter } from './auth/rate-limit.js';
import { createTokenCodec } from './auth/tokens.js';
import { adminAllowList, adminTokens } from './auth/operator-settings.js';
import type { Config } from './config.js';
import { registerCompression } from './http/compression.js';
import { HostpayError } from './errors.js';
import { installConnectHandler, installExpectationHandler, makeClientErrorHandler } from './http/client-errors.js';
import { frameworkErrorHandler, installErrorHandler } from './http/error-handler.js';
import { loggerOptions, OneLineLogController } from './http/logging.js';
import { installNotFound } from './http/not-found.js';
import { registerDocs, registerOpenApi } from './http/openapi.js';
import { genReqId, REQUEST_ID_HEADER } from './http/request-id.js';
import { FASTIFY_COMPILERS } from './http/fastify-compilers.js';
import { REGISTERED_FEATURES } from './features/index.js';
import {
  KERNEL_PROVISIONS,
  type FeatureProvisions,
  type FeatureRouteContext,
  type ProvisionName,
  type Provisions,
} from './feature-kit/feature.js';
import type { AdminRoutes } from './admin/scope.js';
import type { AppOptions } from './feature-kit/operator-front.js';
import { installFastPath } from './http/fast-path.js';
import type { AdminServices } from './services.js';
import type { MerchantServices } from './auth/ports.js';
import { installMetrics } from './http/metrics-plugin.js';
import { trackRoutes } from './http/route-list.js';
import { Metrics } from './observability/metrics.js';
import type { RedisState } from './cluster/shared-state.js';

/** `AppOptions`: options meant for one feature (the console's built files). */
export interface AppDeps extends AppOptions {
  config: Config;
  services: MerchantServices;
  /**
   * Operator services for the admin API (/admin/v1). Absent, or no operator token configured
   * (HOSTPAY_ADMIN_TOKEN / HOSTPAY_ADMIN_TOKENS): the admin API is disabled (404).
   */
  admin?: AdminServices;
  /** Clock in ms for timestamps, token times and rate windows; tests move it. Default Date.now. */
  now?: () => number;
  /** false: no logs; an object: pino options merged over ours. Default: pino at config.logLevel. */
  logger?: boolean | object;
  /** Shared rate-limit state (Redis with several instances). Default: in-process counters. */
  rateLimiter?: RateLimiter;
  /** Where Redis stands, for /readyz and /metrics. Default: not configured. */
  redisState?: () => RedisState;
  /** Store dialect label for metrics. */
  storeDialect?: 'sqlite' | 'postgres';
  /**
   * What the registered features provide (createServices' result has it all), for their routes.
   * One missing: buildApp fails naming the feature and what it lacks.
   */
  features: FeatureProvisions;
  /** Operator tokens by name; default: from the configuration (HOSTPAY_ADMIN_TOKEN / HOSTPAY_ADMIN_TOKENS). */
  operatorTokens?: Map<string, string>;
}

/** The version in the OpenAPI document: the API's (path prefix /api/v1), not the package's. */
const API_VERSION = '1.0.0';

/**
 * Builds the HTTP app (plugins, routes, error handling) without listening; server.ts listens.
 * Tests use the result with `app.inject`.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, services } = deps;
  const now = deps.now ?? Date.now;
  // Client errors can only arrive once listening, by when the app's logger is set.
  let clientLog: FastifyBaseLogger;
  const logger = loggerOptions(config, deps.logger);
  const logController = new OneLineLogController();
  const app = Fastify({
    logger,
    logController,
    genReqId,
    requestIdHeader: false,
    // A hop count, not `true`: with `true` the left-most X-Forwarded-For entry, which the client
    // writes, would become the address that IP allow-lists and failed-auth limits see.
    trustProxy: config.trustProxyHops === 0 ? false : (_address: string, hop: number) => hop < config.trustProxyHops,
    // No route takes a large body; the token route lowers this further.
    bodyLimit: 16 * 1024,
    // Requests arriving on a keep-alive connection while we drain are served (with Connection:
    // close) rather than answered by Fastify's own non-envelope 503.
    return503OnClosing: false,
    schemaController: FASTIFY_COMPILERS,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler: makeClientErrorHandler(() => clientLog),
    // A request without Host reaches our hooks (and gets the envelope) instead of Node's bare 400.
    http: { requireHostHeader: false },
  }).withTypeProvider<TypeBoxTypeProvider>();
  clientLog = app.log;
  installExpectationHandler(app.server);
  installConnectHandler(app.server, () => clientLog);

  trackRoutes(app);
  app.decorateRequest('principal', null);
  app.decorateRequest('rawBody', '');
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    if (req.raw.httpVersion === '1.1' && req.headers.host === undefined) {
      done(
        new HostpayError(
          'MALFORMED_REQUEST',
          'HTTP/1.1 requests must carry a Host header: check what your HTTP client sends',
        ),
      );
      return;
    }
    done();
  });
  const metrics = new Metrics();
  installMetrics(app, metrics, logger === false ? undefined : logController);
  // server.ts serves them on HOSTPAY_METRICS_PORT, when set, from this same registry.
  app.decorate('hostpayMetrics', metrics);
  installErrorHandler(app);
  installNotFound(app);
  registerCompression(app);
  const operatorTokens =
    deps.admin === undefined ? new Map<string, string>() : (deps.operatorTokens ?? adminTokens(config));
  const admin = operatorTokens.size > 0 ? deps.admin : undefined;
  const docsSource = registerOpenApi(app, API_VERSION, {
    admin: admin !== undefined,
    console: admin !== undefined && config.console,
  });

  const tokens = createTokenCodec(services.tokenSigningKey);
  const limiter = deps.rateLimiter ?? new MemoryRateLimiter({ now });
  // One operator check for the admin API (which also takes console sessions) and /metrics.
  const allowList = admin === undefined ? null : adminAllowList(config);
  const operatorCheck = { tokens: operatorTokens, limiter, failureLimit: config.authFailureLimitPerMinute, allowList };
  const operatorAuth = admin === undefined ? undefined : createOperatorAuth(operatorCheck);
  const provisions = featureProvisions(deps.features);
  // The merchant dashboard's sessions: a second way into the merchant routes (auth/authenticate.ts).
  const [dashboardSessions, ...more] = REGISTERED_FEATURES.flatMap((f) =>
    f.merchantSessions === undefined ? [] : [f.merchantSessions(provisions, { config, now })],
  );
  if (more.length > 0) throw new Error('two features give the merchant dashboard sessions: one at most');
  const ctx: FeatureRouteContext<ProvisionName> = {
    ...provisions,
    sessions: dashboardSessions,
    limiter,
    idempotency: deps.admin?.idempotency,
    config,
    services,
    now,
    tokens,
    auth: createAuthHooks({
      config,
      services,
      now,
      limiter,
      tokens,
      sessions: dashboardSessions,
      v1Notice: signatureV1Notice(config, metrics.signatureV1Requests),
    }),
    metrics,
    redisState: deps.redisState ?? (() => 'disabled'),
    storeDialect: deps.storeDialect ?? 'sqlite',
    operatorAuth,
  };
  for (const feature of REGISTERED_FEATURES) {
    for (const routes of feature.merchantRoutes ?? []) await app.register(routes, ctx);
  }
  // A browser front for this same admin API (features/console): its cookie sessions stand in for
  // the bearer token; off, its routes say how to turn it on.
  const [front, ...otherFronts] = REGISTERED_FEATURES.flatMap((f) =>
    f.operatorFront === undefined
      ? []
      : [f.operatorFront(admin as never, { config, now, operatorTokens, allowList, limiter, options: deps })],
  );
  if (otherFronts.length > 0) throw new Error('two features give the admin API a browser front: one at most');
  if (admin === undefined) await app.register(adminDisabledRoutes, { prefix: ADMIN_PREFIX });
  else {
    const auth = createOperatorAuth({ ...operatorCheck, sessions: front?.sessions });
    // Each feature's operator routes get every operation; they call their own feature's.
    const routes = REGISTERED_FEATURES.flatMap((f) => f.adminRoutes ?? []) as AdminRoutes<AdminServices>[];
    await app.register(adminRoutes<AdminServices>, { prefix: ADMIN_PREFIX, admin, auth, routes });
  }
  if (front !== undefined) await app.register(front.routes);
  await registerDocs(app, docsSource);
  // Behind a proxy the client address comes from X-Forwarded-For, which only Fastify reads.
  if (config.trustProxyHops === 0) {
    installFastPath(app, {
      routes: REGISTERED_FEATURES.flatMap((f) => f.fastRoutes ?? []).flatMap((r) => r(services)),
      auth: ctx.auth,
      requests: metrics.requests,
      now,
      log: logger === false ? undefined : app.log,
    });
  }
  return app;
}

const KERNEL = new Set<ProvisionName>(KERNEL_PROVISIONS);

/**
 * The registered features' provisions out of what the app was given (often the whole services
 * object), failing at start-up for a feature whose needs are not there.
 */
function featureProvisions(given: FeatureProvisions): FeatureProvisions {
  const picked: Partial<Provisions> = {};
  for (const feature of REGISTERED_FEATURES) {
    for (const name of [...feature.needs, ...feature.provides]) {
      if (KERNEL.has(name)) continue;
      const value = (given as Partial<Provisions>)[name];
      if (value === undefined) {
        const role = feature.needs.includes(name) ? 'needs' : 'provides';
        throw new Error(
          `feature "${feature.name}" ${role} "${name}", which buildApp was not given: pass the services (createServices' result) as features`,
        );
      }
      Object.assign(picked, { [name]: value });
    }
  }
  return picked as FeatureProvisions;
}
