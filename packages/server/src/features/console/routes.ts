import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { failedAuthBucket, withFailureLimit } from '../../auth/failure-limit.js';
import { checkOperatorAddress } from '../../auth/operator-auth.js';
import type { RateLimiter } from '../../auth/rate-limit.js';
import type { Config } from '../../config.js';
import { HostpayError } from '../../errors.js';
import { JSON_UTF8 } from '../../http/envelope.js';
import { useRawJsonBody } from '../../http/raw-json-body.js';
import { errorResponses } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { successBody } from '../../http/success-body.js';
import { securityHeaders } from '../../http/page-headers.js';
import {
  behindHttps,
  cookieName,
  csrfMatches,
  csrfTokenOf,
  sessionCookies,
  sessionIdOf,
  SESSION_ABSOLUTE_MS,
  type ConsoleSessions,
} from './sessions.js';
import type { ConsoleFiles } from './static.js';
import { successSchema } from '../../http/success-body.js';

export interface ConsoleRouteContext {
  config: Config;
  sessions: ConsoleSessions;
  /** The operator whose token this is (constant time), or undefined. */
  operatorOf: (token: string) => string | undefined;
  allowList: readonly string[] | null;
  limiter: RateLimiter;
  /** The built pages; undefined: not built, /console says how to build it. */
  files: ConsoleFiles | undefined;
}

const Session = Type.Object(
  {
    operator: Type.String({ description: 'the operator name of the token that signed in (recorded in the audit log)' }),
    csrfToken: Type.String({
      description: 'send as `x-csrf-token` on every write (POST, PUT, PATCH, DELETE) made with the session cookie',
    }),
    createdAt: Type.String(),
    idleExpiresAt: Type.String({
      description: 'the session ends here unless a request comes first (HOSTPAY_CONSOLE_IDLE_MINUTES)',
    }),
    expiresAt: Type.String({ description: 'the absolute end of the session (12 h after sign-in)' }),
  },
  { additionalProperties: false },
);
const ok = (description: string, result: TSchema = Session) => successSchema(result, description);
const SignedOut = Type.Object({ signedOut: Type.Literal(true) }, { additionalProperties: false });
const COMMON = ['IP_NOT_ALLOWED', 'RATE_LIMITED', 'INTERNAL', 'UNAVAILABLE'] as const;
const HOW = 'sign in at /console with an operator token (HOSTPAY_ADMIN_TOKEN or HOSTPAY_ADMIN_TOKENS)';

/**
 * The operator console: its pages at /console and its session routes. The console's own calls go
 * to the admin API (/admin/v1) with the session cookie; these routes only open, read and end the
 * session. Every answer carries the payment page's security headers and CSP.
 */
export async function consoleRoutes(app: TypedApp, ctx: ConsoleRouteContext): Promise<void> {
  const { sessions, config } = ctx;
  useRawJsonBody(app, 2048, '{"token": "<operator token>"}');
  app.addHook('onRequest', async (req, reply) => {
    securityHeaders(reply);
    checkOperatorAddress(ctx.allowList, req.ip);
  });
  const secure = (req: FastifyRequest) => behindHttps(req, config.publicUrl);
  const json = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('cache-control', 'no-store').type(JSON_UTF8).send(body);
  const clearCookie = (req: FastifyRequest, reply: FastifyReply) =>
    reply.header('set-cookie', sessionCookies(cookieName(secure(req)), '', secure(req), 0));

  app.post(
    '/console/session',
    {
      bodyLimit: 2048,
      schema: {
        tags: ['console'],
        operationId: 'createConsoleSession',
        summary: 'Sign in to the operator console',
        description:
          'Exchanges an operator token for a session cookie (HttpOnly, SameSite=Strict, Secure behind https; `__Host-` prefixed then) and the CSRF token the console sends on writes. The session ends after HOSTPAY_CONSOLE_IDLE_MINUTES without a request, 12 h after sign-in, at sign-out, or when the token is changed. Failed sign-ins count towards the per-address limit of failed authentications.',
        security: [],
        body: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 512, description: 'an operator token' }) },
          { additionalProperties: false },
        ),
        response: {
          201: ok('Signed in: the cookie is set.'),
          ...errorResponses([
            'INVALID_BODY',
            'INVALID_TOKEN',
            'PAYLOAD_TOO_LARGE',
            'UNSUPPORTED_MEDIA_TYPE',
            ...COMMON,
          ]),
        },
      },
    },
    async (req, reply) => {
      const operator = await withFailureLimit(
        ctx.limiter,
        failedAuthBucket('operator', req.ip),
        config.authFailureLimitPerMinute,
        'too many failed sign-ins from your address: retry after the Retry-After seconds',
        () => {
          const name = ctx.operatorOf(req.body.token);
          if (name === undefined) throw new HostpayError('INVALID_TOKEN', `this is not an operator token: ${HOW}`);
          return name;
        },
      );
      const created = await sessions.create(operator);
      const maxAge = Math.floor(SESSION_ABSOLUTE_MS / 1000);
      reply.header('set-cookie', sessionCookies(cookieName(secure(req)), created.id, secure(req), maxAge));
      return json(reply, 201, successBody({ ...created.session, csrfToken: created.csrfToken }, 'signed in'));
    },
  );

  app.get(
    '/console/session',
    {
      schema: {
        tags: ['console'],
        operationId: 'getConsoleSession',
        summary: 'The console session of this browser',
        description:
          'Who is signed in, when the session ends, and its CSRF token (for a reloaded page). 401 INVALID_TOKEN when there is no live session. Counts as activity.',
        security: [],
        response: { 200: ok('The live session.'), ...errorResponses(['INVALID_TOKEN', ...COMMON]) },
      },
    },
    async (req, reply) => {
      const id = sessionIdOf(req.headers.cookie, secure(req));
      const session = id === undefined ? undefined : await sessions.check(id);
      if (id === undefined || session === undefined) {
        clearCookie(req, reply);
        throw new HostpayError('INVALID_TOKEN', `no console session: ${HOW}`);
      }
      return json(reply, 200, successBody({ ...session, csrfToken: csrfTokenOf(id) }));
    },
  );

  app.delete(
    '/console/session',
    {
      schema: {
        tags: ['console'],
        operationId: 'deleteConsoleSession',
        summary: 'Sign out of the console',
        description:
          "Ends the session and clears the cookie. Needs the session's `x-csrf-token` like every write (403 CSRF_TOKEN_INVALID); without a live session it only clears the cookie.",
        security: [],
        response: { 200: ok('Signed out.', SignedOut), ...errorResponses(['CSRF_TOKEN_INVALID', ...COMMON]) },
      },
    },
    async (req, reply) => {
      const id = sessionIdOf(req.headers.cookie, secure(req));
      if (id !== undefined && (await sessions.check(id)) !== undefined) {
        const given = req.headers['x-csrf-token'];
        if (!csrfMatches(id, typeof given === 'string' ? given : undefined))
          throw new HostpayError('CSRF_TOKEN_INVALID', "signing out needs the session's CSRF token in `x-csrf-token`");
        await sessions.remove(id);
      }
      clearCookie(req, reply);
      return json(reply, 200, successBody({ signedOut: true }, 'signed out'));
    },
  );

  const html = (reply: FastifyReply, status: number, body: Buffer | string) =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
  const page = async (_req: FastifyRequest, reply: FastifyReply) => {
    if (ctx.files === undefined)
      return html(
        reply,
        503,
        '<!doctype html><html lang="en"><title>hostpay console</title><h1>The console is not built</h1><p>Run <code>npm run build</code>, then restart the server.</p></html>',
      );
    return html(reply, 200, ctx.files.index);
  };
  app.get('/console', { schema: { hide: true } }, page);
  app.get('/console/', { schema: { hide: true } }, page);
  app.get(
    '/console/assets/:file',
    { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 80 }) }) } },
    async (req, reply) => {
      const file = ctx.files?.assets.get(req.params.file);
      if (file === undefined)
        throw new HostpayError(
          'NOT_FOUND',
          'no such console file: files are named by their content hash; reload the console',
        );
      return reply.header('cache-control', 'public, max-age=31536000, immutable').type(file.type).send(file.body);
    },
  );
}

/** HOSTPAY_CONSOLE unset: /console says how to turn it on instead of a bare 404. */
export async function consoleDisabledRoutes(app: TypedApp): Promise<void> {
  const off = () => {
    throw new HostpayError(
      'NOT_FOUND',
      'the operator console is not enabled on this server: set HOSTPAY_CONSOLE=true and an operator token (HOSTPAY_ADMIN_TOKEN), then restart',
    );
  };
  app.all('/console', { schema: { hide: true } }, off);
  app.all('/console/*', { schema: { hide: true } }, off);
}
