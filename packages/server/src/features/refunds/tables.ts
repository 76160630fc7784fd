import type { Migration } from '../../store/migrate.js';
import * as m017 from './migrations/017-refund-links.js';

// The refunds feature's tables (added to the store's Database below) and the migrations that made them.

/** A payer's refund link (migration 017, features/refunds): the token itself is never stored. */
export interface RefundLinkTable {
  id: string;
  /** SHA-256 hex of the token in the link's URL. */
  token_hash: string;
  checkout_id: string;
  merchant_id: string;
  /** Decimal text in the checkout's refund asset; null: whatever is refundable when the payer submits. */
  amount: string | null;
  expires_at: string;
  used_at: string | null;
  /** The refund (payout) the payer's address requested. */
  payout_id: string | null;
  created_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    refund_links: RefundLinkTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const refundsMigrations: readonly Migration[] = [{ version: 17, name: 'refund-links', up: m017.up }];
