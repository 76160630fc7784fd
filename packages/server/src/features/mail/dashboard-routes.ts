import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { sessionPrincipalOf } from '../../auth/principal.js';
import type { FeatureRouteContext } from '../../feature-kit/feature.js';
import { JSON_UTF8 } from '../../http/envelope.js';
import type { TypedApp } from '../../http/route-context.js';
import { successBody } from '../../http/success-body.js';
import { NOTIFICATION_NAMES } from './preferences.js';

/** The dashboard's API prefix (merchant-users/http.ts has the same; mail imports nothing of that feature). */
const DASH = '/dashboard/api';
const EVERY_ROLE = { dashboard: { roles: ['owner', 'admin', 'developer', 'viewer'] as const } };
const hide = { hide: true, tags: ['dashboard'] };

const sendJson = (reply: FastifyReply, status: number, result: unknown, message = 'OK') =>
  reply.code(status).header('cache-control', 'no-store').type(JSON_UTF8).send(successBody(result, message));

/**
 * The signed-in user's merchant notifications (GET/PATCH /dashboard/api/notifications, session
 * only, every role: each user sets their own) and the merchant's hard-bounced addresses.
 * Security notices are not among the switches: they are always sent.
 */
export async function mailDashboardRoutes(app: TypedApp, ctx: FeatureRouteContext<'mail'>): Promise<void> {
  const prefs = ctx.mail.preferences;
  app.addHook('preValidation', ctx.auth.dashboard);

  app.get(`${DASH}/notifications`, { config: EVERY_ROLE, schema: hide }, async (req, reply) =>
    sendJson(reply, 200, await prefs.get(sessionPrincipalOf(req).userId)),
  );

  app.patch(
    `${DASH}/notifications`,
    {
      config: EVERY_ROLE,
      bodyLimit: 1024,
      schema: {
        ...hide,
        body: Type.Object(Object.fromEntries(NOTIFICATION_NAMES.map((n) => [n, Type.Optional(Type.Boolean())])), {
          additionalProperties: false,
          minProperties: 1,
        }),
      },
    },
    async (req, reply) => {
      const p = sessionPrincipalOf(req);
      const saved = await prefs.update(
        { userId: p.userId, merchantId: p.merchantId },
        req.body as Record<string, boolean>,
      );
      return sendJson(reply, 200, saved, 'notifications saved');
    },
  );

  app.get(`${DASH}/mail-bounces`, { config: EVERY_ROLE, schema: hide }, async (req, reply) =>
    sendJson(reply, 200, { items: await prefs.bounces(sessionPrincipalOf(req).merchantId), nextCursor: null }),
  );
}
