import { PATHS, TimeEnvelope } from '@hostpay/protocol';
import { Type, type TSchema } from '@sinclair/typebox';
import { HostpayError } from '../errors.js';
import { okBody } from '../http/envelope.js';
import { errorResponses, ERRORS, SECURITY } from '../http/route-schemas.js';
import type { RouteContext, TypedApp } from './context.js';

/** Routes without authentication: clock, liveness, readiness. */
const envelopeOf = (result: TSchema, description: string) =>
  Type.Object(
    { status: Type.Boolean(), message: Type.String(), isSuccess: Type.Boolean(), result },
    { additionalProperties: false, description },
  );
const Alive = envelopeOf(Type.Object({ status: Type.Literal('alive') }, { additionalProperties: false }), 'The process answers.');
const Ready = envelopeOf(
  Type.Object(
    {
      status: Type.Literal('ready'),
      store: Type.Literal('up'),
      redis: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('disabled')], {
        description: 'down: still ready, with per-instance rate limits and uncached reads until Redis is back',
      }),
    },
    { additionalProperties: false },
  ),
  'The store answers.',
);

export async function publicRoutes(app: TypedApp, ctx: RouteContext): Promise<void> {
  const { config, now, services, metrics } = ctx;
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

  app.get(PATHS.time, {
    schema: {
      tags: ['public'],
      summary: 'Server time, to set the timestamp header from',
      security: SECURITY.public,
      response: { 200: Type.Ref(TimeEnvelope, { description: 'The server clock.' }), ...errorResponses(ERRORS.public) },
    },
  }, async () => {
    const ms = now();
    return okBody('server time', {
      unixTime: Math.floor(ms / 1000),
      iso: new Date(ms).toISOString(),
      toleranceSeconds: config.timestampToleranceSeconds,
    });
  });

  app.get('/healthz', {
    schema: { tags: ['public'], summary: 'Liveness: the process answers', security: SECURITY.public, response: { 200: Alive, ...errorResponses(ERRORS.public) } },
  }, async () => okBody('alive', { status: 'alive' as const }));

  app.get('/readyz', {
    schema: { tags: ['public'], summary: 'Readiness: the store answers', security: SECURITY.public, response: { 200: Ready, ...errorResponses(ERRORS.ready) } },
  }, async (req) => {
    if (!(await storeReady())) {
      req.log.warn('readiness check failed: the store does not answer');
      throw new HostpayError('UNAVAILABLE', 'not ready: the store is not reachable; retry shortly');
    }
    return okBody('ready', { status: 'ready' as const, store: 'up' as const, redis: ctx.redisState() });
  });

  app.get('/metrics', {
    schema: { tags: ['public'], summary: 'Prometheus metrics of this instance (keep it on the monitoring network)', security: SECURITY.public, produces: ['text/plain'] },
  }, async (_req, reply) => {
    await storeReady();
    metrics.setRedis(ctx.redisState());
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
