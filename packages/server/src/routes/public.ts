import { PATHS, TimeEnvelope } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { HostpayError } from '../errors.js';
import { okBody } from '../http/envelope.js';
import { errorResponses, ERRORS, SECURITY } from '../http/route-schemas.js';
import type { RouteContext, TypedApp } from './context.js';

/** Routes without authentication: clock, liveness, readiness. */
const health = (state: 'alive' | 'ready', description: string) =>
  Type.Object(
    {
      status: Type.Boolean(),
      message: Type.String(),
      isSuccess: Type.Boolean(),
      result: Type.Object({ status: Type.Literal(state) }, { additionalProperties: false }),
    },
    { additionalProperties: false, description },
  );

export async function publicRoutes(app: TypedApp, ctx: RouteContext): Promise<void> {
  const { config, now, services } = ctx;

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
    schema: { tags: ['public'], summary: 'Liveness: the process answers', security: SECURITY.public, response: { 200: health('alive', 'The process answers.'), ...errorResponses(ERRORS.public) } },
  }, async () => okBody('alive', { status: 'alive' as const }));

  app.get('/readyz', {
    schema: { tags: ['public'], summary: 'Readiness: the store answers', security: SECURITY.public, response: { 200: health('ready', 'The store answers.'), ...errorResponses(ERRORS.ready) } },
  }, async (req) => {
    try {
      await services.checkReady();
    } catch (err) {
      req.log.warn({ err }, 'readiness check failed');
      throw new HostpayError('UNAVAILABLE', 'not ready: the store is not reachable; retry shortly');
    }
    return okBody('ready', { status: 'ready' as const });
  });
}
