import { decimalText, type DecimalInput } from './decimals.js';
import { HostpayError } from './errors.js';
import type { RequestSpec, Transport } from './transport.js';
import type { WriteOptions } from './types.js';

/**
 * A random Idempotency-Key. crypto.randomUUID exists on Node, Deno, Bun and edge runtimes, but
 * browsers offer it only in secure contexts: there 16 random bytes as hex do the same job.
 */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  return Array.from(c.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** An id put into a path: never empty (that would name another route), always one segment. */
export function idPath(template: string, id: string, what: string): string {
  if (typeof id !== 'string' || id === '') {
    throw new HostpayError({ status: 0, code: 'INVALID_ARGUMENT', message: `${what} is required` });
  }
  return template.replace(':id', encodeURIComponent(id));
}

/**
 * A write (POST, PATCH, DELETE) with an Idempotency-Key, the caller's or a fresh random one, the same on
 * every retry of the call: a write whose answer was lost is not done twice when it is retried.
 */
export function write(
  transport: Transport,
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body: object | undefined,
  options: WriteOptions,
): Promise<unknown> {
  const headers = { 'idempotency-key': options.idempotencyKey ?? newIdempotencyKey() };
  const spec: RequestSpec = { method, path, query: { merchantId: options.merchantId }, auth: 'bearer', headers };
  return transport.call(body === undefined ? spec : { ...spec, body }, options);
}

/** A page of a cursor-paginated list: the envelope's `result` and `nextCursor`. */
export async function page<T>(
  transport: Transport,
  path: string,
  query: Record<string, string | undefined>,
  options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined },
): Promise<{ items: T[]; nextCursor: string | null }> {
  const spec: RequestSpec = { method: 'GET', path, query, auth: 'bearer', envelope: true };
  const doc = (await transport.call(spec, options)) as { result: T[]; nextCursor?: string | null };
  return { items: doc.result, nextCursor: doc.nextCursor ?? null };
}

/** Every item of a list, page after page. */
export async function* pages<T, P extends { cursor?: string | undefined }>(
  list: (params: P) => Promise<{ items: T[]; nextCursor: string | null }>,
  params: Omit<P, 'cursor'>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const next = await list({ ...params, cursor } as P);
    yield* next.items;
    cursor = next.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** `limit` as query text. */
export const limitText = (limit: number | undefined): string | undefined =>
  limit === undefined ? undefined : String(limit);

/** An optional amount as exact decimal text; left out stays left out. */
export const optionalDecimal = (value: DecimalInput | undefined): string | undefined =>
  value === undefined ? undefined : decimalText(value);

/** A time as RFC 3339 text; null (clear) and undefined (leave out) pass through. */
export const timeText = (value: string | Date | null | undefined): string | null | undefined =>
  value instanceof Date ? value.toISOString() : value;
