import type { Migration } from '../../store/migrate.js';
import * as m030 from './migrations/030-mail.js';

// The mail feature's tables (added to the store's Database below) and the migrations that made them.

/** What a mail row is now (docs/mail.md, "States"). */
export type MailStatus = 'pending' | 'sent' | 'kept' | 'failed' | 'bounced' | 'limited' | 'suppressed';

export interface MailOutboxTable {
  id: string;
  merchant_id: string | null;
  kind: string;
  to_address: string;
  to_role: 'payer' | 'user' | 'operator';
  user_id: string | null;
  /** JSON: the template's data the mail is rendered from (render.ts); null when sealed. */
  data: string | null;
  /** The same sealed (owner `mailOwner(id)`), for mails holding a link token; cleared 7 days after sending. */
  data_sealed: string | null;
  /** The subject as sent or kept (written by the sender); null before. */
  subject: string | null;
  status: MailStatus;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  body_deleted_at: string | null;
}

export interface MailPreferencesTable {
  user_id: string;
  merchant_id: string;
  settings: string;
  updated_at: string;
}

export interface MailBounceTable {
  address: string;
  merchant_id: string | null;
  mail_id: string;
  reason: string;
  at: string;
}

declare module '../../store/database.js' {
  interface Database {
    mail_outbox: MailOutboxTable;
    mail_preferences: MailPreferencesTable;
    mail_bounces: MailBounceTable;
  }
}

export const mailMigrations: readonly Migration[] = [{ version: 30, name: 'mail', up: m030.up }];
