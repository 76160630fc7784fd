import type { SelectQueryBuilder } from 'kysely';
import { HostpayError } from '../errors.js';

export interface PageRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface Page<T> {
  items: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

/**
 * Keyset pagination on (`column`, id), oldest first: stable under concurrent inserts, unlike
 * offsets. The cursor is opaque to callers (base64url of the last row's position).
 */
export async function page<DB, TB extends keyof DB, O extends { id: string }, T>(
  query: SelectQueryBuilder<DB, TB, O>,
  /** The ordering column, optionally table-qualified; its unqualified name is the row field. */
  column: string,
  req: PageRequest,
  view: (row: O) => T,
  /** 'desc': newest first (merchant lists); the cursor continues in the same direction. */
  direction: 'asc' | 'desc' = 'asc',
): Promise<Page<T>> {
  const limit = req.limit ?? DEFAULT_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new HostpayError('INVALID_QUERY', `limit must be a whole number from 1 to ${MAX_PAGE}`);
  }
  const table = column.includes('.') ? column.slice(0, column.indexOf('.') + 1) : '';
  const field = column.slice(table.length);
  let q = query as unknown as SelectQueryBuilder<Record<string, Record<string, string>>, string, O>;
  if (req.cursor) {
    const [at, id] = decodeCursor(req.cursor);
    const past = direction === 'asc' ? '>' : '<';
    q = q.where((eb) => eb.or([eb(column, past, at), eb.and([eb(column, '=', at), eb(`${table}id`, past, id)])]));
  }
  const rows = await q
    .orderBy(column, direction)
    .orderBy(`${table}id`, direction)
    .limit(limit + 1)
    .execute();
  const items = rows.slice(0, limit);
  const last = items[items.length - 1] as (O & Record<string, string>) | undefined;
  return {
    items: items.map(view),
    nextCursor:
      rows.length > limit && last ? Buffer.from(JSON.stringify([last[field], last.id])).toString('base64url') : null,
  };
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      value.every((v) => typeof v === 'string' && !v.includes('\u0000')) &&
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(value[0] as string)
    ) {
      return value as [string, string];
    }
  } catch {
    // fall through to the error below
  }
  throw new HostpayError('INVALID_QUERY', 'cursor is not valid: pass the nextCursor of the previous page unchanged');
}
