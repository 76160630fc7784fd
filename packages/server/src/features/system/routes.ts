import { PATHS, TimeEnvelope } from '@hostpay/protocol';
import { Type, type TSchema } from '@sinclair/typebox';
import type { Metric } from 'prom-client';
import { HostpayError } from '../../errors.js';
import { okBody } from '../../http/success-body.js';
import { errorResponses, ERRORS, SECURITY } from '../../http/route-schemas.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';

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
              state: Type.Union([
                Type.Literal('watching'),
                Type.Literal('standby'),
                Type.Literal('error'),
                Type.Literal('stopped'),
              ]),
              leader: Type.Boolean({ description: 'this instance watches the chain now (holds its lease)' }),
              lastError: Type.Union([Type.String(), Type.Null()], {
                description: 'the last failed round, RPC URL masked',
              }),
            },
            { additionalProperties: false },
          ),
          {
            description:
              'the EVM chains this instance follows (docs/chains.md); an RPC error shows here but does not make the instance unready',
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

export async function publicRoutes(app: TypedApp, ctx: RouteContext): Promise<void> {
  const { config, now, services, metrics } = ctx;
  for (const metric of (ctx.evm?.metrics.collectors() ?? []) as (Metric & { name: string })[]) {
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
          'Probes the store: 200 when it answers, 503 UNAVAILABLE when not. Redis being down does not make the instance unready (see `redis`), nor does an EVM node that fails (see `chains`). Use it as the readiness probe.',
        security: SECURITY.public,
        response: { 200: Ready, ...errorResponses(ERRORS.ready) },
      },
    },
    async (req) => {
      if (!(await storeReady())) {
        req.log.warn('readiness check failed: the store does not answer');
        throw new HostpayError('UNAVAILABLE', 'not ready: the store is not reachable; retry shortly');
      }
      const chains = ctx.evm?.watcher.statuses() ?? [];
      return okBody('ready', {
        status: 'ready' as const,
        store: 'up' as const,
        redis: ctx.redisState(),
        ...(chains.length > 0 ? { chains } : {}),
      });
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        tags: ['public'],
        operationId: 'getMetrics',
        summary: 'Prometheus metrics of this instance (keep it on the monitoring network)',
        description:
          'Prometheus text exposition format 0.0.4: request counts and latencies by route template, failed authentications by code, store and Redis reachability, Node process metrics.',
        security: SECURITY.public,
        response: {
          200: {
            description: 'The metrics of this instance.',
            content: {
              [METRICS_TYPE]: {
                schema: Type.String({ description: 'Prometheus text exposition format, version 0.0.4' }),
              },
            },
          },
          ...errorResponses(ERRORS.public),
        },
      },
    },
    async (_req, reply) => {
      await storeReady();
      metrics.setRedis(ctx.redisState());
      return reply.type(METRICS_TYPE).send(await metrics.registry.metrics());
    },
  );
}
