import { Type } from '@sinclair/typebox';
import { pageOf, PageQuery } from '../../admin/schemas.js';
import { HostpayError } from '../../errors.js';
import { sessionPrincipalOf, type SessionPrincipal } from '../../auth/principal.js';
import type { FeatureRouteContext } from '../../feature-kit/feature.js';
import { useRawJsonBody } from '../../http/raw-json-body.js';
import type { TypedApp } from '../../http/route-context.js';
import { successPageBody, successPageSchema } from '../../http/success-body.js';
import { JSON_UTF8 } from '../../http/envelope.js';
import { errorResponses } from '../../http/route-schemas.js';
import { actorOf, BODY, COMMON, DASH, Empty, responses, SESSION_ERRORS, sendJson } from './http.js';
import { ALL_ROLES, ROLES, type Role, TEAM_ADMINS } from './roles.js';
import { listSecurity } from './security-log.js';
import type { Issuer } from './team-links.js';
import type { Team } from './team.js';

const RoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
const User = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    createdAt: Type.String(),
    lastSignInAt: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
const Invitation = Type.Object(
  { id: Type.String(), email: Type.String(), role: RoleSchema, expiresAt: Type.String() },
  { additionalProperties: false },
);
const Link = Type.Object(
  {
    id: Type.String(),
    link: Type.String({ description: 'the one-time link, shown once: pass it on yourself (no mail is sent)' }),
    expiresAt: Type.String(),
  },
  { additionalProperties: false },
);
const SecurityItem = Type.Object(
  {
    id: Type.String(),
    at: Type.String(),
    userEmail: Type.Union([Type.String(), Type.Null()]),
    action: Type.String(),
    ip: Type.Union([Type.String(), Type.Null()]),
    details: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  },
  { additionalProperties: false },
);
const tags = ['dashboard'];
const issuerOf = (p: SessionPrincipal): Issuer => ({ userId: p.userId, email: p.email });

/** The team routes (users, roles, invitations, reset links) and the security log, session only. */
export async function dashboardTeamRoutes(app: TypedApp, ctx: FeatureRouteContext<'merchantUsers'>): Promise<void> {
  const { store } = ctx.merchantUsers;
  const { team } = ctx.merchantUsers.forApp(ctx.config.dashboardIdleMinutes * 60_000, ctx.now);
  useRawJsonBody(app, 2048, '{"email": "colleague@example.com", "role": "developer"}');
  app.addHook('preValidation', ctx.auth.dashboard);
  const any = { dashboard: { roles: ALL_ROLES } };
  const admins = { dashboard: { roles: TEAM_ADMINS } };
  const owners = { dashboard: { roles: ['owner' as const] } };

  app.get(
    `${DASH}/team`,
    {
      config: any,
      schema: {
        tags,
        operationId: 'getDashboardTeam',
        summary: 'The team: users and pending invitations',
        description: 'Every user of the merchant with role and last sign-in, and the invitations not yet accepted.',
        security: [],
        response: responses(
          200,
          Type.Object(
            { users: Type.Array(User), invitations: Type.Array(Invitation) },
            { additionalProperties: false },
          ),
          'The team.',
          SESSION_ERRORS,
        ),
      },
    },
    async (req, reply) => sendJson(reply, 200, await team.list(sessionPrincipalOf(req).merchantId)),
  );

  app.post(
    `${DASH}/team/invitations`,
    {
      config: admins,
      schema: {
        tags,
        operationId: 'createDashboardInvitation',
        summary: 'Invite someone to the team',
        description: 'A one-time link, valid 7 days, shown once. Only an owner may invite an owner.',
        security: [],
        body: Type.Object(
          { email: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' }), role: RoleSchema },
          { additionalProperties: false },
        ),
        response: responses(201, Link, 'Invited.', [...BODY, ...SESSION_ERRORS, 'TEAM_CONFLICT']),
      },
    },
    async (req, reply) => {
      const p = sessionPrincipalOf(req);
      if (req.body.role === 'owner' && p.role !== 'owner') throw roleForbidden('only an owner may invite an owner');
      const link = await team.invite(p.merchantId, req.body.email, req.body.role, issuerOf(p), actorOf(req));
      return sendJson(reply, 201, link, 'invited: pass the link on');
    },
  );

  app.delete(
    `${DASH}/team/invitations/:id`,
    {
      config: admins,
      schema: {
        tags,
        operationId: 'revokeDashboardInvitation',
        summary: 'Revoke a pending invitation',
        description: 'The link stops working at once (404 LINK_INVALID).',
        security: [],
        params: IdParams,
        response: responses(200, Empty, 'Revoked.', [...SESSION_ERRORS, 'NOT_FOUND']),
      },
    },
    async (req, reply) => {
      const p = sessionPrincipalOf(req);
      await team.revokeInvitation(p.merchantId, req.params.id, issuerOf(p), actorOf(req));
      return sendJson(reply, 200, {}, 'revoked');
    },
  );

  app.patch(
    `${DASH}/team/users/:id`,
    {
      config: owners,
      schema: {
        tags,
        operationId: 'updateDashboardUser',
        summary: "Change a member's role",
        description: "Acts at once on the member's sessions. The last owner cannot be demoted (409 TEAM_CONFLICT).",
        security: [],
        params: IdParams,
        body: Type.Object({ role: RoleSchema }, { additionalProperties: false }),
        response: responses(200, User, 'The member.', [...BODY, ...SESSION_ERRORS, 'NOT_FOUND', 'TEAM_CONFLICT']),
      },
    },
    async (req, reply) => {
      const p = sessionPrincipalOf(req);
      const user = await team.changeRole(p.merchantId, req.params.id, req.body.role, issuerOf(p), actorOf(req));
      return sendJson(reply, 200, user, 'role changed');
    },
  );

  memberRoutes(app, store, team, { admins, owners });
}

/** A member's removal and reset link, and the team's security log. */
function memberRoutes(
  app: TypedApp,
  store: FeatureRouteContext<'merchantUsers'>['merchantUsers']['store'],
  team: Team,
  { admins, owners }: Record<'admins' | 'owners', { dashboard: { roles: readonly Role[] } }>,
): void {
  app.delete(
    `${DASH}/team/users/:id`,
    {
      config: owners,
      schema: {
        tags,
        operationId: 'removeDashboardUser',
        summary: 'Remove a member',
        description: "Ends the member's sessions. The last owner cannot be removed (409 TEAM_CONFLICT).",
        security: [],
        params: IdParams,
        response: responses(200, Empty, 'Removed.', [...SESSION_ERRORS, 'NOT_FOUND', 'TEAM_CONFLICT']),
      },
    },
    async (req, reply) => {
      const p = sessionPrincipalOf(req);
      await team.remove(p.merchantId, req.params.id, issuerOf(p), actorOf(req));
      return sendJson(reply, 200, {}, 'removed');
    },
  );

  app.post(
    `${DASH}/team/users/:id/reset-link`,
    {
      config: owners,
      schema: {
        tags,
        operationId: 'createDashboardResetLink',
        summary: 'A password-reset link for a member',
        description: 'One-time, valid 24 hours, shown once: pass it on yourself.',
        security: [],
        params: IdParams,
        response: responses(201, Link, 'The link.', [...SESSION_ERRORS, 'NOT_FOUND']),
      },
    },
    async (req, reply) => {
      const p = sessionPrincipalOf(req);
      const link = await team.resetLink(p.merchantId, { userId: req.params.id }, issuerOf(p), actorOf(req));
      return sendJson(reply, 201, link, 'pass the link on');
    },
  );

  app.get(
    `${DASH}/security-log`,
    {
      config: admins,
      schema: {
        tags,
        operationId: 'getDashboardSecurityLog',
        summary: "The team's security log, newest first",
        description:
          'Sign-ins (and failures, locks), TOTP enrolment, recovery codes used, password changes and resets, invitations, role changes, removals, sign-outs everywhere, keys made or revoked from the dashboard.',
        security: [],
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: {
          200: Type.Unsafe<string>(successPageSchema(SecurityItem, 'A page of the log.')),
          ...errorResponses([...SESSION_ERRORS, 'INVALID_QUERY', ...COMMON]),
        },
      },
    },
    async (req, reply) => {
      const page = await listSecurity(store.db, sessionPrincipalOf(req).merchantId, pageOf(req.query));
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .type(JSON_UTF8)
        .send(successPageBody(page.items, page.nextCursor));
    },
  );
}

function roleForbidden(message: string) {
  return new HostpayError('ROLE_FORBIDDEN', message, { roles: ['owner'] });
}
