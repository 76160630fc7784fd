import type { Migration } from '../../store/migrate.js';
import * as m031 from './migrations/031-payment-links.js';

// The payment links feature's tables (added to the store's Database below) and the migrations that made them.

/** A payment link (migration 031): amounts are decimal text, lists and metadata JSON text. */
export interface PaymentLinkTable {
  id: string;
  merchant_id: string;
  /** ~128 random bits, base64url: the public page is /l/{slug}. */
  slug: string;
  name: string;
  description: string | null;
  currency: string;
  /** The fixed price (the sum of line_items when they are given); null: the payer types it. */
  amount: string | null;
  min_amount: string | null;
  max_amount: string | null;
  /** JSON `[{name, quantity, unitAmount}]` (unitAmount as decimal text), or null. */
  line_items: string | null;
  /** JSON `[{asset, chain}]`, or null: every payable wallet. */
  payment_options: string | null;
  collect_email: 'none' | 'optional' | 'required';
  success_url: string | null;
  cancel_url: string | null;
  max_uses: number | null;
  expires_at: string | null;
  /** 1 or 0. */
  active: number;
  /** JSON object of strings. */
  metadata: string;
  created_at: string;
  updated_at: string;
}

/** A nonce of the public form that was submitted, and the checkout it made (set once committed). */
export interface PaymentLinkSubmissionTable {
  nonce: string;
  payment_link_id: string;
  checkout_id: string | null;
  created_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    payment_links: PaymentLinkTable;
    payment_link_submissions: PaymentLinkSubmissionTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const paymentLinksMigrations: readonly Migration[] = [{ version: 31, name: 'payment-links', up: m031.up }];
