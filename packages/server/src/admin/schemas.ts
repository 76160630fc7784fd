import { CHECKOUT_STATUS_VALUES } from '@hostpay/protocol';
import { Type, type TSchema } from '@sinclair/typebox';
import { DEFAULT_PAGE, MAX_PAGE } from './pagination.js';
import { SECURITY } from '../http/route-schemas.js';

/**
 * Request pieces every admin route shares: path ids, pagination, exact-decimal body fields, the
 * Idempotency-Key header, and the tag + security every admin route carries.
 */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9_.:-]{1,128}$';

// Ids are plain: anything else is refused before it reaches a query or is echoed in a message.
export const Id = (what: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description: `${what} id` });

export const IdParams = (what: string) => Type.Object({ id: Id(what) }, { additionalProperties: false });

/** `limit` and `cursor`; `limit` arrives as text and is read as an integer (http/validator.ts). */
export const PageQuery = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE,
      description: `page size, 1 to ${MAX_PAGE} (default ${DEFAULT_PAGE})`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 512, description: 'the nextCursor of the previous page, unchanged' }),
  ),
};

export function pageOf(q: { limit?: number; cursor?: string }): {
  limit: number | undefined;
  cursor: string | undefined;
} {
  return { limit: q.limit, cursor: q.cursor };
}

/** A checkout status filter: one of the contract's statuses (an enum in the document). */
export const CheckoutStatusQuery = (description: string) =>
  Type.Union(
    CHECKOUT_STATUS_VALUES.map((s) => Type.Literal(s)),
    { description },
  );

/** A time filter: a full RFC 3339 time with an offset (`format: date-time`, checked by http/validator.ts). */
export const TimeQuery = (description: string) =>
  Type.String({ format: 'date-time', maxLength: 64, description: `${description}, e.g. 2027-01-01T00:00:00Z` });

export const Query = <P extends Record<string, TSchema>>(props: P) =>
  Type.Object(props, { additionalProperties: false });

/** An amount in a request body: a string, so no JSON parser on the way can round it. */
export const DecimalString = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: `${what}. Exact decimal as a JSON string, e.g. "12.50" (at most 18 fractional digits); JSON numbers are refused so nothing is rounded.`,
  });

export const Currency = (what: string) =>
  Type.String({
    pattern: '^[A-Za-z0-9]{2,12}$',
    description: `${what}: currency or asset code, case-insensitive (e.g. USDT)`,
  });

export const OptionalTime = (what: string) =>
  Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: `${what}: ISO 8601 time, e.g. 2027-01-01T00:00:00Z` }),
  );

/** The body of action routes (suspend, revoke, ...): nothing, or an empty object. */
export const NoBody = Type.Object({}, { additionalProperties: false, description: 'no body, or {}' });

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      pattern: IDEMPOTENCY_KEY_PATTERN,
      description:
        'optional, 1-128 of A-Z a-z 0-9 _ . : -; a retry with the same key and the same request gets the first answer (header Idempotent-Replayed: true), another request with it is 409 IDEMPOTENCY_CONFLICT. Kept 24 h.',
    }),
  ),
});

/** Spread into every admin route schema: reads, and writes (which also take Idempotency-Key). */
export const READ = { tags: ['admin'], security: SECURITY.operator };
export const WRITE = { tags: ['admin'], security: SECURITY.operator, headers: IdempotencyHeaders };
