import type { EventTable } from './tables.js';

/**
 * The event as JSON text: `{id, type, createdAt, sequence, data}`. The stored `data` is already
 * the exact JSON text of `{object}` (exact decimals), so it is spliced in, never re-parsed: the
 * API and every webhook delivery send the same bytes.
 */
export function eventJson(row: Pick<EventTable, 'id' | 'type' | 'created_at' | 'sequence' | 'data'>): string {
  return `{"id":${JSON.stringify(row.id)},"type":${JSON.stringify(row.type)},"createdAt":${JSON.stringify(row.created_at)},"sequence":${Number(row.sequence)},"data":${row.data}}`;
}
