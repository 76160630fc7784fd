import { PATHS, TimeEnvelope } from '@hostpay/protocol';
import { Type, type TSchema } from '@sinclair/typebox';
import type { Metric } from 'prom-client';
import { HostpayError } from '../../errors.js';
import { okBody } from '../../http/success-body.js';
import { errorResponses, ERRORS, SECURITY } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import type { FeatureRouteContext } from '../../feature-kit/feature.js';

/** Routes without authentication: clock, liveness, readiness. */
const envelopeOf = (result: TSchema, description: string) =>
  Type.Object(
    { status: Type.Boolean(), message: Type.String(), isSuccess: Type.Boolean(), result },
    { additionalProperties: false, description },
  );
const Alive = envelopeOf(
  Type.Object(
    {
      status: Type.Literal('alive'),
      sandbox: Type.Boolean({
        description:
          'true on a sandbox (test) deployment: simulated payments and diagnostic authentication errors; never true in production',
      }),
    },
    { additionalProperties: false },
  ),
  'The process answers.',
);
const Ready = envelopeOf(
  Type.Object(
    {
      status: Type.Literal('ready'),
      store: Type.Literal('up'),
      redis: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('disabled')], {
        description: 'down: still ready, with per-instance rate limits and uncached reads until Redis is back',
      }),
      chains: Type.Optional(
        Type.Array(
          Type.Object(
            {
              chain: Type.String(),
              state: Type.Union(
                [
                  Type.Literal('watching'),
                  Type.Literal('standby'),
                  Type.Literal('error'),
                  Type.Literal('failing'),
                  Type.Literal('stopped'),
                ],
                {
                  description:
                    'failing: failedRounds reached HOSTPAY_CHAIN_WATCH_FAILING_ROUNDS; payments on that chain are not seen',
                },
              ),
              leader: Type.Boolean({ description: 'this instance watches the chain now (holds its lease)' }),
              lastError: Type.Union([Type.String(), Type.Null()], {
                description: 'the last failed round, RPC URL masked',
              }),
              failedRounds: Type.Integer({
                minimum: 0,
                description: 'rounds failed in a row (node errors, blocks that do not link up); 0 after a good round',
              }),
            },
            { additionalProperties: false },
          ),
          {
            description:
              'the chains this instance follows (docs/chains.md); a failing node shows here (state error, then failing) but does not make the instance unready: alert on hostpay_chain_watch_failed_rounds',
          },
        ),
      ),
    },
    { additionalProperties: false },
  ),
  'The store answers.',
);

/** prom-client's content type (Registry.PROMETHEUS_CONTENT_TYPE), written down so the document names it. */
const METRICS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export async function publicRoutes(app: TypedApp, ctx: FeatureRouteContext<'healthReports'>): Promise<void> {
  const { config, now, services, metrics, healthReports } = ctx;
  const collectors = healthReports().flatMap((r) => r.collectors?.() ?? []);
  for (const metric of collectors as (Metric & { name: string })[]) {
    if (metrics.registry.getSingleMetric(metric.name) === undefined) metrics.registry.registerMetric(metric);
  }
  const storeLabel = { dialect: ctx.storeDialect };

  /** Probes the store and records the answer in the store gauge. */
  async function storeReady(): Promise<boolean> {
    try {
      await services.checkReady();
      metrics.storeUp.set(storeLabel, 1);
      return true;
    } catch {
      metrics.storeUp.set(storeLabel, 0);
      return false;
    }
  }

  app.get(
    PATHS.time,
    {
      schema: {
        tags: ['public'],
        operationId: 'getServerTime',
        summary: 'Server time, to set the timestamp header from',
        description:
          'The `timestamp` header of a signed request must be within `toleranceSeconds` of this clock. A client whose clock drifts can read the offset here and correct its timestamps.',
        security: SECURITY.public,
        response: {
          200: Type.Ref(TimeEnvelope, { description: 'The server clock.' }),
          ...errorResponses(ERRORS.public),
        },
      },
    },
    async () => {
      const ms = now();
      return okBody('server time', {
        unixTime: Math.floor(ms / 1000),
        iso: new Date(ms).toISOString(),
        toleranceSeconds: config.timestampToleranceSeconds,
      });
    },
  );

  app.get(
    '/healthz',
    {
      schema: {
        tags: ['public'],
        operationId: 'getLiveness',
        summary: 'Liveness: the process answers',
        description:
          'Answers 200 as long as the process serves HTTP; it does not touch the store. Use it as the liveness probe.',
        security: SECURITY.public,
        response: { 200: Alive, ...errorResponses(ERRORS.public) },
      },
    },
    async () => okBody('alive', { status: 'alive' as const, sandbox: config.sandbox }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['public'],
        operationId: 'getReadiness',
        summary: 'Readiness: the store answers',
        description:
          'Probes the store: 200 when it answers, 503 UNAVAILABLE when not. Redis being down does not make the instance unready (see `redis`), nor does a chain watch whose node fails, even one `failing` for many rounds (see `chains`: every instance would be taken out alike, and the API and the other chains still work). Use it as the readiness probe.',
        security: SECURITY.public,
        response: { 200: Ready, ...errorResponses(ERRORS.ready) },
      },
    },
    async (req) => {
      if (!(await storeReady())) {
        req.log.warn('readiness check failed: the store does not answer');
        throw new HostpayError('UNAVAILABLE', 'not ready: the store is not reachable; retry shortly');
      }
      const chains = healthReports().flatMap((r) => r.chains?.() ?? []);
      return okBody('ready', {
        status: 'ready' as const,
        store: 'up' as const,
        redis: ctx.redisState(),
        ...(chains.length > 0 ? { chains } : {}),
      });
    },
  );

  // Metrics name every route, webhook endpoint and chain of this instance: not for the public.
  // With HOSTPAY_METRICS_PORT they are served only on that listener (server.ts); without it, here,
  // to operator tokens only.
  metrics.onScrape(storeReady);
  metrics.onScrape(() => metrics.setRedis(ctx.redisState()));
  const elsewhere = config.metricsPort >= 0;
  const guard = elsewhere ? undefined : ctx.operatorAuth;
  app.get(
    '/metrics',
    {
      ...(guard === undefined ? {} : { preHandler: guard }),
      schema: {
        tags: ['public'],
        operationId: 'getMetrics',
        summary: 'Prometheus metrics of this instance, for operators',
        description:
          'Prometheus text exposition format 0.0.4: request counts and latencies by route template, failed authentications by code, store and Redis reachability, webhook deliveries, Node process metrics. On the service port only with an operator token (`Authorization: Bearer`), and not at all when HOSTPAY_METRICS_PORT serves them on a listener of their own (loopback by default, no authentication: keep it on the monitoring network).',
        // Without operator tokens the document has no operator scheme (and this route answers 404).
        security: guard === undefined ? SECURITY.public : SECURITY.operator,
        response: {
          200: {
            description: 'The metrics of this instance.',
            content: {
              [METRICS_TYPE]: {
                schema: Type.String({ description: 'Prometheus text exposition format, version 0.0.4' }),
              },
            },
          },
          ...errorResponses([
            'MISSING_HEADER',
            'INVALID_TOKEN',
            'IP_NOT_ALLOWED',
            'NOT_FOUND',
            'RATE_LIMITED',
            'INTERNAL',
          ]),
        },
      },
    },
    async (_req, reply) => {
      if (elsewhere)
        throw new HostpayError(
          'NOT_FOUND',
          `metrics are served on their own listener (HOSTPAY_METRICS_PORT=${config.metricsPort}, HOSTPAY_METRICS_HOST), not on this port`,
        );
      if (guard === undefined)
        throw new HostpayError(
          'NOT_FOUND',
          'metrics are served to operator tokens only, and none is configured: set HOSTPAY_ADMIN_TOKEN(S), or HOSTPAY_METRICS_PORT for a listener of their own',
        );
      return reply.type(METRICS_TYPE).send(await metrics.text());
    },
  );
}
