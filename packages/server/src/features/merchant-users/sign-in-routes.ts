import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { failedAuthBucket, withFailureLimit } from '../../auth/failure-limit.js';
import { HostpayError } from '../../errors.js';
import type { FeatureRouteContext } from '../../feature-kit/feature.js';
import type { TypedApp } from '../../http/route-context.js';
import {
  actorOf,
  BODY,
  DASH,
  halfSession,
  responses,
  SessionSchema,
  sendJson,
  sessionIdOf,
  sessionView,
  setSessionCookie,
} from './http.js';
import { PASSWORD_MAX } from './passwords.js';
import { ADDRESS_FAILURES, withAddressLimit } from './sign-in-limit.js';
import { LOCK_AFTER, LOCK_MS } from './users.js';
import { type AccountServices, Email, Enrol, TotpStage, tags } from './account-schemas.js';

/**
 * Sign-in in two steps (password, then TOTP or a recovery code) and TOTP enrolment. Each step
 * replaces the session with one of a new id; sign-in is throttled per address (the
 * failed-authentication limiter) and per account.
 */
export function signInRoutes(
  app: TypedApp,
  ctx: FeatureRouteContext<'merchantUsers'>,
  { accounts, sessions }: AccountServices,
): void {
  const { config, limiter } = ctx;
  const publicUrl = config.publicUrl;
  // The half session of a sign-in step, checked (with its CSRF token) before the body is: a write
  // without the token is refused as CSRF_FAILED whatever it carries.
  const halves = new WeakMap<FastifyRequest, Awaited<ReturnType<typeof halfSession>>>();
  const checkHalf = (stage: 'totp' | 'enrol') => async (req: FastifyRequest) => {
    halves.set(req, await halfSession(req, sessions, publicUrl, stage));
  };
  const halfOf = (req: FastifyRequest) => {
    const half = halves.get(req);
    if (half === undefined) throw new Error('half-session route reached without its check');
    return half;
  };

  app.post(
    `${DASH}/sign-in`,
    {
      schema: {
        tags,
        operationId: 'dashboardSignIn',
        summary: 'Sign in, step 1: email and password',
        description: `Checks the password (argon2id) and opens a half session (10 minutes) for the second step: \`stage: totp\`, or \`stage: enrol\` with a new TOTP secret for an account that never finished enrolment. An unknown email and a wrong password get the same answer after the same work. One client address may fail ${ADDRESS_FAILURES} times per account in ${LOCK_MS / 60_000} minutes (then 429 RATE_LIMITED with Retry-After), so one address cannot lock the account; ${LOCK_AFTER} failures in a row from several addresses lock the account for ${LOCK_MS / 60_000} minutes (429 ACCOUNT_LOCKED); failures also count towards the per-address limit of failed authentications.`,
        security: [],
        body: Type.Object(
          { email: Email, password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX }) },
          { additionalProperties: false },
        ),
        response: responses(200, Type.Union([TotpStage, Enrol]), 'Password accepted: the half-session cookie is set.', [
          ...BODY,
          'SIGN_IN_FAILED',
          'ACCOUNT_LOCKED',
        ]),
      },
    },
    async (req, reply) => {
      const emailHash = createHash('sha256').update(req.body.email.trim().toLowerCase()).digest('hex');
      // Counted under the account's password too: a reset link (a new password) lifts both limits.
      const account = `${emailHash}:${await accounts.lockGeneration(req.body.email)}`;
      const emailBucket = `signin:${account}`;
      // The address's own limit on this account comes first (sign-in-limit.ts): one address is
      // turned away before its failures can lock the account for its owner.
      const user = await withAddressLimit(limiter, req.ip, `email:${account}`, async () => {
        const locked = await limiter.peek(emailBucket, LOCK_AFTER, LOCK_MS);
        if (!locked.allowed)
          throw new HostpayError(
            'ACCOUNT_LOCKED',
            `too many failed sign-ins for this account: try again in ${Math.ceil(locked.resetSeconds / 60)} minute(s), or ask an owner for a password reset link`,
            { retryAfterSeconds: locked.resetSeconds },
            { 'retry-after': String(locked.resetSeconds) },
          );
        return withFailureLimit(
          limiter,
          failedAuthBucket('merchant', req.ip),
          config.authFailureLimitPerMinute,
          'too many failed sign-ins from your address: retry after the Retry-After seconds',
          () =>
            accounts.checkPassword(req.body.email, req.body.password, actorOf(req)).catch(async (err: unknown) => {
              // Every email, known or not, is locked alike after LOCK_AFTER failures.
              if (err instanceof HostpayError && err.code === 'SIGN_IN_FAILED')
                await limiter.hit(emailBucket, LOCK_AFTER, LOCK_MS);
              throw err;
            }),
        );
      });
      const previous = sessionIdOf(req, publicUrl);
      if (user.totp_confirmed === 1) {
        const s = await sessions.create(user.id, 'totp', previous);
        setSessionCookie(req, reply, publicUrl, s.id, 'totp');
        return sendJson(reply, 200, { stage: 'totp', csrfToken: s.csrfToken }, 'password accepted: send the TOTP code');
      }
      const enrol = await accounts.startEnrolment(user.id);
      const s = await sessions.create(user.id, 'enrol', previous);
      setSessionCookie(req, reply, publicUrl, s.id, 'enrol');
      return sendJson(
        reply,
        200,
        { stage: 'enrol', ...enrol, csrfToken: s.csrfToken },
        'password accepted: enrol TOTP',
      );
    },
  );

  app.post(
    `${DASH}/sign-in/totp`,
    {
      preValidation: checkHalf('totp'),
      schema: {
        tags,
        operationId: 'dashboardSignInTotp',
        summary: 'Sign in, step 2: TOTP code or recovery code',
        description:
          'With the half session of step 1 and its CSRF token. A code is accepted for its 30 s step and the one before and after, once: the same code (or an older one) is refused afterwards. A recovery code is used up. Failures count towards the account lock and the per-address limit. The half session is replaced by a full one with a new id.',
        security: [],
        body: Type.Union([
          Type.Object({ code: Type.String({ minLength: 1, maxLength: 16 }) }, { additionalProperties: false }),
          Type.Object({ recoveryCode: Type.String({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false }),
        ]),
        response: responses(200, SessionSchema, 'Signed in: the session cookie is set.', [
          ...BODY,
          'SESSION_REQUIRED',
          'CSRF_FAILED',
          'TOTP_INVALID',
          'ACCOUNT_LOCKED',
        ]),
      },
    },
    async (req, reply) => {
      const half = halfOf(req);
      await withAddressLimit(limiter, req.ip, `user:${half.session.userId}`, () =>
        withFailureLimit(
          limiter,
          failedAuthBucket('merchant', req.ip),
          config.authFailureLimitPerMinute,
          'too many failed sign-ins from your address: retry after the Retry-After seconds',
          () => accounts.checkSecondFactor(half.session.userId, req.body, actorOf(req)),
        ),
      );
      return openFull(req, reply, half.session.userId, half.id);
    },
  );

  /** The full session after the last step, with a new id; the answer is the Session. */
  async function openFull(
    req: Parameters<typeof sessionIdOf>[0] & Parameters<typeof setSessionCookie>[0],
    reply: Parameters<typeof setSessionCookie>[1],
    userId: string,
    replacing: string,
    extra: Record<string, unknown> = {},
  ) {
    const s = await sessions.create(userId, 'full', replacing);
    const live = await sessions.find(s.id);
    if (live === undefined) throw new Error('a session just created is not found');
    setSessionCookie(req, reply, publicUrl, s.id, 'full');
    const view = sessionView(live, s.csrfToken);
    return sendJson(reply, 200, Object.keys(extra).length === 0 ? view : { ...extra, session: view }, 'signed in');
  }

  app.post(
    `${DASH}/totp/confirm`,
    {
      preValidation: checkHalf('enrol'),
      schema: {
        tags,
        operationId: 'confirmDashboardTotp',
        summary: 'Finish TOTP enrolment',
        description:
          'The first code from the authenticator app proves it holds the secret. Answers the ten recovery codes (shown once; each works once) and the full session, with a new id.',
        security: [],
        body: Type.Object({ code: Type.String({ minLength: 1, maxLength: 16 }) }, { additionalProperties: false }),
        response: responses(
          200,
          Type.Object(
            { recoveryCodes: Type.Array(Type.String(), { minItems: 10, maxItems: 10 }), session: SessionSchema },
            { additionalProperties: false },
          ),
          'Enrolled and signed in.',
          [...BODY, 'SESSION_REQUIRED', 'CSRF_FAILED', 'TOTP_INVALID'],
        ),
      },
    },
    async (req, reply) => {
      const half = halfOf(req);
      const { recoveryCodes } = await accounts.confirmEnrolment(half.session.userId, req.body.code, actorOf(req));
      return openFull(req, reply, half.session.userId, half.id, { recoveryCodes });
    },
  );
}
