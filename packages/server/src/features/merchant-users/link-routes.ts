import { Type } from '@sinclair/typebox';
import { addressBlock } from '../../auth/failure-limit.js';
import { rateLimited } from '../../auth/refusals.js';
import type { FeatureRouteContext } from '../../feature-kit/feature.js';
import type { TypedApp } from '../../http/route-context.js';
import { actorOf, BODY, DASH, Empty, responses, sendJson, sessionIdOf, setSessionCookie } from './http.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords.js';
import { Password, TokenParams, Enrol, tags } from './account-schemas.js';
import type { AccountServices } from './account-schemas.js';

/** Forgot-password requests one client address may make a minute. */
export const RESET_REQUESTS_PER_MINUTE = 10;

/** The routes of emailed links: an invitation (read, accept) and a password reset (read, use). */
export function linkRoutes(
  app: TypedApp,
  ctx: FeatureRouteContext<'merchantUsers'>,
  { team, sessions }: AccountServices,
): void {
  const publicUrl = ctx.config.publicUrl;
  app.get(
    `${DASH}/invitations/:token`,
    {
      schema: {
        tags,
        operationId: 'getDashboardInvitation',
        summary: 'What an invitation link is for',
        description:
          'The email, role and merchant of a live invitation; 404 LINK_INVALID once used, revoked or past its 7 days.',
        security: [],
        params: TokenParams,
        response: responses(
          200,
          Type.Object(
            { email: Type.String(), role: Type.String(), merchantName: Type.String(), expiresAt: Type.String() },
            { additionalProperties: false },
          ),
          'The invitation.',
          ['LINK_INVALID'],
        ),
      },
    },
    async (req, reply) => sendJson(reply, 200, await team.invitation(req.params.token)),
  );

  app.post(
    `${DASH}/invitations/:token/accept`,
    {
      schema: {
        tags,
        operationId: 'acceptDashboardInvitation',
        summary: 'Accept an invitation: choose a password, then enrol TOTP',
        description:
          'Creates the user with this password (the link is used up) and answers a new TOTP secret to enrol, with a half session for POST /dashboard/api/totp/confirm.',
        security: [],
        params: TokenParams,
        body: Type.Object(
          { password: Password(`${PASSWORD_MIN} to ${PASSWORD_MAX} characters`) },
          { additionalProperties: false },
        ),
        response: responses(200, Enrol, 'Accepted: the half-session cookie is set.', [...BODY, 'LINK_INVALID']),
      },
    },
    async (req, reply) => {
      const accepted = await team.accept(req.params.token, req.body.password, actorOf(req));
      const s = await sessions.create(accepted.userId, 'enrol', sessionIdOf(req, publicUrl));
      setSessionCookie(req, reply, publicUrl, s.id, 'enrol');
      return sendJson(
        reply,
        200,
        { stage: 'enrol', totpSecret: accepted.totpSecret, otpauthUri: accepted.otpauthUri, csrfToken: s.csrfToken },
        'invitation accepted: enrol TOTP',
      );
    },
  );

  app.get(
    `${DASH}/password-reset/:token`,
    {
      schema: {
        tags,
        operationId: 'getDashboardPasswordReset',
        summary: 'What a password-reset link is for',
        description: 'The email and merchant of a live reset link; 404 LINK_INVALID once used or past its 24 hours.',
        security: [],
        params: TokenParams,
        response: responses(
          200,
          Type.Object(
            { email: Type.String(), merchantName: Type.String(), expiresAt: Type.String() },
            { additionalProperties: false },
          ),
          'The reset link.',
          ['LINK_INVALID'],
        ),
      },
    },
    async (req, reply) => sendJson(reply, 200, await team.resetLinkInfo(req.params.token)),
  );

  app.post(
    `${DASH}/password-reset/:token`,
    {
      schema: {
        tags,
        operationId: 'resetDashboardPassword',
        summary: 'Set a new password with a reset link',
        description:
          'The link is used up, a lock on the account is lifted and every session of the user ends; TOTP stays as it was. Then sign in.',
        security: [],
        params: TokenParams,
        body: Type.Object(
          { password: Password(`${PASSWORD_MIN} to ${PASSWORD_MAX} characters`) },
          { additionalProperties: false },
        ),
        response: responses(200, Empty, 'Password set.', [...BODY, 'LINK_INVALID']),
      },
    },
    async (req, reply) => {
      await team.resetPassword(req.params.token, req.body.password, actorOf(req));
      return sendJson(reply, 200, {}, 'password set: sign in');
    },
  );

  app.post(
    `${DASH}/password-reset-requests`,
    {
      bodyLimit: 1024,
      schema: {
        tags,
        operationId: 'requestDashboardPasswordReset',
        summary: 'Forgot password: mail a reset link',
        description: `The sign-in page's "forgot password": every account of this email (one per merchant) is mailed a reset link valid 24 hours. The answer is the same whether or not an account exists; at most one link a minute per account, and at most ${RESET_REQUESTS_PER_MINUTE} requests a minute from one client address (429 RATE_LIMITED). 400 INVALID_EMAIL when the email is not one plain address.`,
        security: [],
        body: Type.Object({ email: Type.String({ minLength: 1, maxLength: 1000 }) }, { additionalProperties: false }),
        response: responses(202, Empty, 'Mailed when an account exists.', [...BODY, 'INVALID_EMAIL', 'RATE_LIMITED']),
      },
    },
    async (req, reply) => {
      // Unauthenticated and each one writes (a link, a security-log row, a mail): one client's
      // requests are limited before any of that, not only the mails they would cause.
      const rate = await ctx.limiter.hit(`reset-request:${addressBlock(req.ip)}`, RESET_REQUESTS_PER_MINUTE, 60_000);
      if (!rate.allowed)
        throw rateLimited(
          rate,
          'too many password-reset requests from this address: retry after the Retry-After seconds',
        );
      await team.requestReset(req.body.email, actorOf(req));
      return sendJson(reply, 202, {}, 'if an account of this email exists, a reset link is on its way');
    },
  );
}
