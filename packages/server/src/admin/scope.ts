import type { FastifyReply, FastifyRequest } from 'fastify';
import { HostpayError } from '../errors.js';
import { useRawJsonBody } from '../http/raw-json-body.js';
import type { TypedApp } from '../http/route-context.js';
import type { AdminIdempotency } from '../http/idempotency.js';
import { installIdempotency } from '../http/idempotency-hook.js';
import { auditOf } from './reply.js';

/**
 * The admin API under /admin/v1: one Fastify scope whose only authentication is the operator
 * hook (auth/operator-auth.ts), JSON bodies only, Idempotency-Key on writes. Register with
 * `{ prefix: ADMIN_PREFIX }`.
 */
export const ADMIN_PREFIX = '/admin/v1';
const ADMIN_BODY_LIMIT = 16 * 1024;

/** A feature's admin route plugin: it gets the operator operations (`admin`) it calls. */
export type AdminRoutes<S> = (app: TypedApp, ctx: { admin: S }) => Promise<void>;

export interface AdminPluginContext<S extends { idempotency: AdminIdempotency }> {
  admin: S;
  auth: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** The features' route plugins (features/index.ts), registered inside this scope. */
  routes: readonly AdminRoutes<S>[];
}

export async function adminRoutes<S extends { idempotency: AdminIdempotency }>(
  app: TypedApp,
  ctx: AdminPluginContext<S>,
): Promise<void> {
  app.decorateRequest('operator', null);
  // Answers are JSON text written by writeExactJson (exact decimals) and trimmed to their schema
  // (reply.ts); no compiled serializer runs (app.ts).
  useRawJsonBody(app, ADMIN_BODY_LIMIT, '{"name": "Shop"}');
  app.addHook('onRequest', ctx.auth);
  installIdempotency(app, ctx.admin.idempotency, (req) => auditOf(req).operator);
  const routeCtx = { admin: ctx.admin };
  for (const routes of ctx.routes) await app.register(routes, routeCtx);
}

/**
 * No operator token configured (or no admin services): the admin API does not exist. Every path
 * under the prefix is 404, with a message for the operator who expected it to be there.
 */
export async function adminDisabledRoutes(app: TypedApp): Promise<void> {
  const disabled = () => {
    throw new HostpayError(
      'NOT_FOUND',
      'the admin API is not enabled on this server: set HOSTPAY_ADMIN_TOKEN (or HOSTPAY_ADMIN_TOKENS) and restart',
    );
  };
  app.all('/', { schema: { hide: true } }, disabled);
  app.all('/*', { schema: { hide: true } }, disabled);
}
