import type { ErrorCode } from '@hostpay/protocol';
import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_UTF8 } from '../http/envelope.js';
import { errorResponses } from '../http/route-schemas.js';
import type { AuditContext } from './deps.js';
import { successBody, successSchema } from '../http/success-body.js';

/** What an admin route plugin gets: the operator operations it calls (its feature's service). */
export interface AdminRouteContext<S> {
  admin: S;
}

/**
 * The documented success envelope around `result`. Handlers send JSON text (exact decimals), so
 * the static type is string; the schema is for the OpenAPI document and for trimming (send).
 */
export function ok(result: TSchema, description: string) {
  return Type.Unsafe<string>(successSchema(result, description));
}

/** `{ <status>: success envelope, 4xx/5xx: error envelopes }` for a route schema. */
export function responses(
  status: number,
  result: TSchema,
  description: string,
  errors: readonly ErrorCode[],
): Record<number, TSchema> {
  return { [status]: ok(result, description), ...errorResponses(errors) };
}

/**
 * Writes the success envelope with exact decimals (writeExactJson). The result is first trimmed
 * to `schema` (in place): whatever the schema does not name is not sent.
 */
export function send(
  reply: FastifyReply,
  status: number,
  schema: TSchema,
  message: string,
  result: unknown,
): FastifyReply {
  return reply
    .code(status)
    .type(JSON_UTF8)
    .send(successBody(Value.Clean(schema, result), message));
}

/** Who made a change, for the audit log: the operator token's name and this request's id. */
export function auditOf(req: FastifyRequest): AuditContext {
  if (req.operator === null) throw new Error('admin route reached without operator authentication');
  return { operator: req.operator, requestId: req.id };
}
