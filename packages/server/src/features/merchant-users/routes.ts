import { Type } from '@sinclair/typebox';
import { sessionPrincipalOf } from '../../auth/principal.js';
import { useRawJsonBody } from '../../http/raw-json-body.js';
import type { FeatureRouteContext } from '../../feature-kit/feature.js';
import type { TypedApp } from '../../http/route-context.js';
import {
  actorOf,
  BODY,
  clearSessionCookie,
  DASH,
  Empty,
  responses,
  SESSION_ERRORS,
  SessionSchema,
  sendJson,
  sessionIdOf,
  sessionView,
} from './http.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords.js';
import { ALL_ROLES } from './roles.js';
import { csrfTokenOf } from './sessions.js';
import { Password, tags } from './account-schemas.js';
import { linkRoutes } from './link-routes.js';
import { signInRoutes } from './sign-in-routes.js';

/**
 * The dashboard's account routes: sign-in and enrolment (sign-in-routes.ts), emailed links
 * (link-routes.ts), and here the session, sign-out and password change. Every write made with a
 * session carries its CSRF token.
 */
export async function dashboardAccountRoutes(app: TypedApp, ctx: FeatureRouteContext<'merchantUsers'>): Promise<void> {
  const services = ctx.merchantUsers.forApp(ctx.config.dashboardIdleMinutes * 60_000, ctx.now);
  const { accounts, sessions } = services;
  const publicUrl = ctx.config.publicUrl;
  useRawJsonBody(app, 4096, '{"email": "you@example.com", "password": "…"}');
  signInRoutes(app, ctx, services);
  linkRoutes(app, ctx, services);

  app.get(
    `${DASH}/session`,
    {
      preValidation: ctx.auth.dashboard,
      config: { dashboard: { roles: ALL_ROLES } },
      schema: {
        tags,
        operationId: 'getDashboardSession',
        summary: 'The session of this browser',
        description:
          'Who is signed in, for which merchant, the role and its scopes, and the CSRF token (for a reloaded page). Counts as activity.',
        security: [],
        response: responses(200, SessionSchema, 'The live session.', SESSION_ERRORS),
      },
    },
    async (req, reply) => {
      const id = sessionIdOf(req, publicUrl)!;
      const live = await sessions.find(id);
      if (live === undefined) throw new Error('session vanished during the request');
      return sendJson(reply, 200, sessionView(live, csrfTokenOf(id)));
    },
  );

  app.post(
    `${DASH}/sign-out`,
    {
      preValidation: ctx.auth.dashboard,
      config: { dashboard: { roles: ALL_ROLES } },
      schema: {
        tags,
        operationId: 'dashboardSignOut',
        summary: 'Sign out of this browser',
        description: 'Ends this session and clears the cookie.',
        security: [],
        response: responses(200, Empty, 'Signed out.', SESSION_ERRORS),
      },
    },
    async (req, reply) => {
      const p = sessionPrincipalOf(req);
      await sessions.remove(sessionIdOf(req, publicUrl)!);
      await accounts.record(p.userId, 'sign-out', actorOf(req));
      clearSessionCookie(req, reply, publicUrl);
      return sendJson(reply, 200, {}, 'signed out');
    },
  );

  app.post(
    `${DASH}/sign-out-everywhere`,
    {
      preValidation: ctx.auth.dashboard,
      config: { dashboard: { roles: ALL_ROLES } },
      schema: {
        tags,
        operationId: 'dashboardSignOutEverywhere',
        summary: 'Sign out of every browser',
        description: 'Ends every session of this user, this one included.',
        security: [],
        response: responses(200, Empty, 'Every session ended.', SESSION_ERRORS),
      },
    },
    async (req, reply) => {
      const p = sessionPrincipalOf(req);
      const ended = await sessions.removeAllOf(p.userId);
      await accounts.record(p.userId, 'sign-out.everywhere', actorOf(req), { sessions: ended });
      clearSessionCookie(req, reply, publicUrl);
      return sendJson(reply, 200, {}, 'signed out everywhere');
    },
  );

  app.post(
    `${DASH}/password`,
    {
      preValidation: ctx.auth.dashboard,
      config: { dashboard: { roles: ALL_ROLES } },
      schema: {
        tags,
        operationId: 'changeDashboardPassword',
        summary: 'Change the password',
        description: 'Checks the current password; every other session of the user ends.',
        security: [],
        body: Type.Object(
          {
            currentPassword: Type.String({ minLength: 1, maxLength: PASSWORD_MAX }),
            newPassword: Password(`${PASSWORD_MIN} to ${PASSWORD_MAX} characters`),
          },
          { additionalProperties: false },
        ),
        response: responses(200, Empty, 'Changed.', [...BODY, ...SESSION_ERRORS, 'SIGN_IN_FAILED', 'ACCOUNT_LOCKED']),
      },
    },
    async (req, reply) => {
      const p = sessionPrincipalOf(req);
      await accounts.changePassword(p.userId, req.body.currentPassword, req.body.newPassword, actorOf(req));
      await sessions.removeAllOf(p.userId, p.sessionHash);
      return sendJson(reply, 200, {}, 'password changed');
    },
  );
}
