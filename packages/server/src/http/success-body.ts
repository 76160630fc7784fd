import { writeExactJson } from '@hostpay/protocol';
import { Type, type TSchema } from '@sinclair/typebox';

/**
 * The success envelope of interface §2.1, `{status: true, message, isSuccess: true, result}`
 * (lists add `nextCursor`): its schemas and its three spellings — object, JSON text of a value,
 * JSON text around finished JSON — are written here and nowhere else.
 */
export type SuccessBody<T> = { status: true; isSuccess: true; message: string; result: T };

/** The envelope's schema around `result`, for route schemas and the OpenAPI document. */
export const successSchema = (result: TSchema, description: string) =>
  Type.Object(
    { status: Type.Literal(true), message: Type.String(), isSuccess: Type.Literal(true), result },
    { additionalProperties: false, description },
  );

/** The envelope's schema of a list page: `result` is the items, `nextCursor` the next page's cursor. */
export const successPageSchema = (item: TSchema, description: string) =>
  Type.Object(
    {
      status: Type.Literal(true),
      message: Type.String(),
      isSuccess: Type.Literal(true),
      result: Type.Array(item),
      nextCursor: Type.Union([Type.String(), Type.Null()], {
        description: 'pass as ?cursor= for the next page; null on the last page',
      }),
    },
    { additionalProperties: false, description },
  );

/** The envelope as an object, for bodies that go through the route's response serializer. */
export function okBody<T>(message: string, result: T): SuccessBody<T> {
  return { status: true, message, isSuccess: true, result };
}

/** The envelope as JSON text with exact decimals. */
export function successBody(result: unknown, message = 'OK'): string {
  return writeExactJson(okBody(message, result));
}

/** A list page's envelope as JSON text with exact decimals. */
export function successPageBody(items: unknown[], nextCursor: string | null, message = 'OK'): string {
  return writeExactJson({ ...okBody(message, items), nextCursor });
}

/** The envelope around finished JSON text of `result` (and `nextCursor` for lists). */
export function envelopeJson(resultJson: string, message = 'OK', nextCursor?: string | null): string {
  const cursor = nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(nextCursor)}`;
  return `{"status":true,"message":${JSON.stringify(message)},"isSuccess":true,"result":${resultJson}${cursor}}`;
}
