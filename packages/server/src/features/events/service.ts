import { HostpayError } from '../../errors.js';
import type { Db } from '../../store/store.js';
import { EVENT_TYPES } from './outbox.js';
import { eventJson } from './view.js';

export interface EventPage {
  /** JSON text of the array of events. */
  itemsJson: string;
  nextCursor: string | null;
}

const cursorOf = (sequence: number) => Buffer.from(`s${sequence}`).toString('base64url');

function sequenceOf(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^s\d{1,15}$/.test(text))
    throw new HostpayError('INVALID_QUERY', 'cursor is not valid: pass the nextCursor of the previous page unchanged', {
      parameter: 'cursor',
    });
  return Number(text.slice(1));
}

/** Comma-separated event types, each from the contract's list. */
export function parseTypes(text: string | undefined): string[] | undefined {
  if (text === undefined || text === '') return undefined;
  const types = text.split(',');
  for (const t of types) {
    if (!(EVENT_TYPES as readonly string[]).includes(t))
      throw new HostpayError(
        'INVALID_QUERY',
        `type must be one or more (comma-separated) of ${EVENT_TYPES.join(', ')}`,
        { parameter: 'type' },
      );
  }
  return types;
}

/**
 * The merchant's events (spec/checkout.md: "merchants can catch up by polling too"): newest
 * first by sequence, which is the commit order of the merchant's changes.
 */
export function eventService(db: Db) {
  return {
    async list(
      merchantId: string,
      q: {
        types?: string[] | undefined;
        limit?: number | undefined;
        cursor?: string | undefined;
        afterSequence?: number | undefined;
        checkoutId?: string | undefined;
      },
    ): Promise<EventPage> {
      const limit = q.limit ?? 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 200)
        throw new HostpayError('INVALID_QUERY', 'limit must be a whole number from 1 to 200', { parameter: 'limit' });
      let query = db.selectFrom('events').selectAll().where('merchant_id', '=', merchantId);
      if (q.types !== undefined) query = query.where('type', 'in', q.types);
      if (q.cursor !== undefined) query = query.where('sequence', '<', sequenceOf(q.cursor));
      if (q.afterSequence !== undefined) query = query.where('sequence', '>', q.afterSequence);
      if (q.checkoutId !== undefined) query = query.where('checkout_id', '=', q.checkoutId);
      const rows = await query
        .orderBy('sequence', 'desc')
        .limit(limit + 1)
        .execute();
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return {
        itemsJson: `[${items.map(eventJson).join(',')}]`,
        nextCursor: rows.length > limit && last ? cursorOf(Number(last.sequence)) : null,
      };
    },

    /** One event as JSON text; another merchant's is "not found", never "forbidden". */
    async get(merchantId: string, id: string): Promise<string> {
      const row = await db
        .selectFrom('events')
        .selectAll()
        .where('id', '=', id)
        .where('merchant_id', '=', merchantId)
        .executeTakeFirst();
      if (row === undefined) throw new HostpayError('NOT_FOUND', `event ${id} does not exist`);
      return eventJson(row);
    },
  };
}

export type EventService = ReturnType<typeof eventService>;
