import { SCOPES, UpdateSettingsBody } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { PageQuery, pageOf } from '../../admin/schemas.js';
import { sessionPrincipalOf, type Role } from '../../auth/principal.js';
import type { FeatureRouteContext } from '../../feature-kit/feature.js';
import { useRawJsonBody } from '../../http/raw-json-body.js';
import type { TypedApp } from '../../http/route-context.js';
import { successPageBody } from '../../http/success-body.js';
import { JSON_UTF8 } from '../../http/envelope.js';
import { DASH, sendJson } from '../merchant-users/http.js';
import { ALL_ROLES, TEAM_ADMINS } from '../merchant-users/roles.js';
import type { KeyUser } from './keys.js';

/**
 * The dashboard's own routes under /dashboard/api (docs/dashboard.md, "Self-service API"): the
 * merchant's API keys and page settings. Session only (`config.dashboard` with the roles
 * allowed; the `auth.dashboard` hook checks the session, its CSRF token on writes and the role).
 * Pages, not API: left out of the OpenAPI document like the console's routes.
 */
const KEY_MANAGERS: readonly Role[] = ['owner', 'admin', 'developer'];
const Id = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) },
  { additionalProperties: false },
);
const Nullable = (t: ReturnType<typeof Type.String>) => Type.Optional(Type.Union([t, Type.Null()]));

function userOf(req: FastifyRequest): KeyUser {
  const p = sessionPrincipalOf(req);
  return {
    merchantId: p.merchantId,
    userId: p.userId,
    email: p.email,
    ip: req.ip,
    requestId: req.id,
    scopes: p.scopes,
  };
}

export async function selfServiceDashboardRoutes(
  app: TypedApp,
  ctx: FeatureRouteContext<'selfService'>,
): Promise<void> {
  const { keys, settings } = ctx.selfService;
  // A data: logo is up to 60,000 characters: the one large body here (under the 64 KiB every route refuses).
  useRawJsonBody(app, 62 * 1024, '{"displayName": "My shop"}');
  app.addHook('preValidation', ctx.auth.dashboard);
  const managers = { dashboard: { roles: KEY_MANAGERS } };
  const small = 2048;
  const hide = { hide: true, tags: ['dashboard'] };

  app.get(
    `${DASH}/keys`,
    {
      config: managers,
      schema: {
        ...hide,
        querystring: Type.Object(
          {
            ...PageQuery,
            status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('revoked')])),
            createdBy: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (req, reply) => {
      const { status, createdBy, ...page } = req.query;
      const result = await keys.list(userOf(req), {
        ...pageOf(page),
        ...(status === undefined ? {} : { status }),
        ...(createdBy === undefined ? {} : { createdBy }),
      });
      return reply
        .header('cache-control', 'no-store')
        .type(JSON_UTF8)
        .send(successPageBody(result.items, result.nextCursor));
    },
  );

  app.post(
    `${DASH}/keys`,
    {
      config: managers,
      bodyLimit: small,
      schema: {
        ...hide,
        body: Type.Object(
          {
            scopes: Type.Optional(
              Type.Array(Type.Union(SCOPES.map((s) => Type.Literal(s))), { minItems: 1, maxItems: SCOPES.length }),
            ),
            label: Nullable(Type.String({ maxLength: 200 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (req, reply) =>
      sendJson(reply, 201, await keys.create(userOf(req), req.body), 'key created: copy the secret now'),
  );

  app.post(
    `${DASH}/keys/:id/roll`,
    {
      config: managers,
      bodyLimit: small,
      schema: {
        ...hide,
        params: Id,
        body: Type.Object(
          { overlapUntil: Type.Optional(Type.String({ maxLength: 40 })) },
          { additionalProperties: false },
        ),
      },
    },
    async (req, reply) => {
      const rolled = await keys.roll(userOf(req), req.params.id, req.body.overlapUntil);
      // The new key with its secret, shown once, and until when the old one still works.
      const result = { ...rolled.new, rotatedFrom: rolled.old.id, previousExpiresAt: rolled.old.expiresAt };
      return sendJson(reply, 201, result, 'key rolled: copy the new secret now');
    },
  );

  app.delete(`${DASH}/keys/:id`, { config: managers, schema: { ...hide, params: Id } }, async (req, reply) =>
    sendJson(reply, 200, await keys.revoke(userOf(req), req.params.id), 'key revoked'),
  );

  app.get(`${DASH}/settings`, { config: { dashboard: { roles: ALL_ROLES } }, schema: hide }, async (req, reply) =>
    sendJson(reply, 200, await settings.get(sessionPrincipalOf(req).merchantId)),
  );

  app.patch(
    `${DASH}/settings`,
    {
      config: { dashboard: { roles: TEAM_ADMINS } },
      schema: {
        ...hide,
        body: UpdateSettingsBody,
      },
    },
    async (req, reply) => sendJson(reply, 200, await settings.update(userOf(req), req.body), 'settings saved'),
  );
}
