import { Type, type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '@hostpay/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { behindHttps, cookieNameFor, readCookie, SAFE_METHODS, sessionCookies } from '../../auth/cookie-session.js';
import { csrfFailed, sessionRequired } from '../../auth/refusals.js';
import type { MerchantSessionPort } from '../../auth/ports.js';
import { JSON_UTF8 } from '../../http/envelope.js';
import { errorResponses } from '../../http/route-schemas.js';
import { successBody, successSchema } from '../../http/success-body.js';
import {
  csrfMatches,
  HALF_SESSION_MS,
  SESSION_ABSOLUTE_MS,
  type DashboardSessions,
  type LiveSession,
  type Stage,
} from './sessions.js';
import type { Actor } from './users.js';

/** What the dashboard's account routes share: the cookie, the session of a request, the answers. */
export const COOKIE = 'hp_session';
export const DASH = '/dashboard/api';

export const secureOf = (req: FastifyRequest, publicUrl: string) => behindHttps(req, publicUrl);
export const cookieOf = (secure: boolean) => cookieNameFor(COOKIE, secure);
export const sessionIdOf = (req: { headers: { cookie?: string | undefined }; protocol: string }, publicUrl: string) =>
  readCookie(req.headers.cookie, cookieOf(behindHttps(req, publicUrl)));

export function setSessionCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
  id: string,
  stage: Stage,
) {
  const secure = secureOf(req, publicUrl);
  const maxAge = Math.floor((stage === 'full' ? SESSION_ABSOLUTE_MS : HALF_SESSION_MS) / 1000);
  reply.header('set-cookie', sessionCookies(cookieOf(secure), id, secure, maxAge, stage === 'full'));
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply, publicUrl: string) {
  const secure = secureOf(req, publicUrl);
  reply.header('set-cookie', sessionCookies(cookieOf(secure), '', secure, 0));
}

export const actorOf = (req: FastifyRequest): Actor => ({ ip: req.ip });

export const sendJson = (reply: FastifyReply, status: number, result: unknown, message = 'OK') =>
  reply.code(status).header('cache-control', 'no-store').type(JSON_UTF8).send(successBody(result, message));

/** The port the merchant hook reads sessions through (auth/ports.ts). */
export function sessionPort(sessions: DashboardSessions, publicUrl: string): MerchantSessionPort {
  return {
    idOf: (req) => sessionIdOf(req, publicUrl),
    principal: (id) => sessions.principal(id),
    principalByHash: (hash) => sessions.principalByHash(hash),
    csrfMatches,
  };
}

/**
 * The half session of a sign-in step (`stage`), with the CSRF token checked as on every write;
 * 401 SESSION_REQUIRED without one (expired, never started, or at another stage).
 */
export async function halfSession(
  req: FastifyRequest,
  sessions: DashboardSessions,
  publicUrl: string,
  stage: Stage,
): Promise<{ id: string; session: LiveSession }> {
  const id = sessionIdOf(req, publicUrl);
  const session = id === undefined ? undefined : await sessions.find(id);
  if (id === undefined || session === undefined || session.stage !== stage) throw sessionRequired();
  if (!SAFE_METHODS.has(req.method)) {
    const given = req.headers['x-csrf-token'];
    if (!csrfMatches(id, typeof given === 'string' ? given : undefined)) throw csrfFailed();
  }
  return { id, session };
}

export const COMMON: ErrorCode[] = ['RATE_LIMITED', 'INTERNAL', 'UNAVAILABLE', 'STORE_BUSY'];
export const BODY: ErrorCode[] = ['INVALID_BODY', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
/** What the `auth.dashboard` hook can answer. */
export const SESSION_ERRORS: ErrorCode[] = ['SESSION_REQUIRED', 'CSRF_FAILED', 'ROLE_FORBIDDEN', 'MERCHANT_SUSPENDED'];

/** Handlers send JSON text, so the static type is string; the schema documents the answer. */
export const ok = (result: TSchema, description: string) => Type.Unsafe<string>(successSchema(result, description));
export const Empty = Type.Object({}, { additionalProperties: false });
export const responses = (status: number, result: TSchema, description: string, codes: ErrorCode[]) => ({
  [status]: ok(result, description),
  ...errorResponses([...codes, ...COMMON]),
});

export const SessionSchema = Type.Object(
  {
    user: Type.Object({ id: Type.String(), email: Type.String() }, { additionalProperties: false }),
    role: Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('developer'), Type.Literal('viewer')]),
    merchant: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
    scopes: Type.Array(Type.String(), { description: 'the scopes the role maps onto (the same API keys carry)' }),
    csrfToken: Type.String({ description: 'send as `x-csrf-token` on every write made with the session cookie' }),
    expiresAt: Type.String({
      description: 'the session ends here unless a request comes first (idle), at most 12 h after sign-in',
    }),
  },
  { additionalProperties: false },
);

export const sessionView = (s: LiveSession, csrfToken: string) => ({
  user: { id: s.userId, email: s.email },
  role: s.role,
  merchant: { id: s.merchantId, name: s.merchantName },
  scopes: [...s.scopes],
  csrfToken,
  expiresAt: s.expiresAt,
});
