import type { Migration } from '../../store/migrate.js';
import * as m022 from './migrations/022-event-checkout-backfill.js';

// The events feature's tables (added to the store's Database below) and the migrations that made them.

export interface EventSequenceTable {
  merchant_id: string;
  last_sequence: number;
}

export interface EventTable {
  id: string;
  merchant_id: string;
  sequence: number;
  type: string;
  /** JSON text of `{object}` (the event's `data`), exact decimals as JSON numbers. */
  data: string;
  created_at: string;
  /** The checkout the event is about (its checkout.* events, its settlement's and refund's events); migration 020. */
  checkout_id: string | null;
}

declare module '../../store/database.js' {
  interface Database {
    events: EventTable;
    event_sequences: EventSequenceTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const eventsMigrations: readonly Migration[] = [{ version: 22, name: 'event-checkout-backfill', up: m022.up }];
