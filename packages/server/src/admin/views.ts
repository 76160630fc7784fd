import { Type, type TSchema } from '@sinclair/typebox';

/**
 * What admin answers are built from. Each answer is trimmed to its schema before it is written
 * (reply.ts), so a field the schema does not name (a secret on a read, say) cannot leak. The
 * features' own answers are in features/<name>/schemas.ts.
 */
export const obj = <P extends Record<string, TSchema>>(props: P, description?: string) =>
  Type.Object(props, { additionalProperties: false, ...(description === undefined ? {} : { description }) });

export const Time = Type.String({ format: 'date-time' });

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Page = <T extends TSchema>(item: T) =>
  obj({
    items: Type.Array(item),
    nextCursor: Nullable(Type.String({ description: 'pass as cursor for the next page; null on the last page' })),
  });

export const DeletedView = obj({ id: Type.String(), deleted: Type.Literal(true) });
