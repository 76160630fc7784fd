import type { Migration } from '../../store/migrate.js';
import * as m006 from './migrations/006-webhooks.js';

// The webhooks feature's tables (added to the store's Database below) and the migrations that made them.

export interface WebhookEndpointTable {
  id: string;
  merchant_id: string;
  /** The URL, sealed (owner `urlOwner(id)`); plaintext only in a row an earlier release wrote (migration 011). */
  url_sealed: string;
  /** The URL masked (outbound/mask-url.ts): what lists, logs and events show. Null: not sealed yet. */
  url_shown: string | null;
  description: string | null;
  /** JSON array text of event types; '[]' means every type. */
  enabled_events: string;
  disabled: number;
  /** 'merchant' | 'gone' (410) | 'failing' (5 days without a success) | null. */
  disabled_reason: string | null;
  disabled_at: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  last_success_at: string | null;
  failing_since: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryTable {
  id: string;
  endpoint_id: string;
  merchant_id: string;
  event_id: string;
  sequence: number;
  /** 'pending' | 'succeeded' | 'failed'. */
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptTable {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_body: string | null;
  succeeded: number;
}

declare module '../../store/database.js' {
  interface Database {
    webhook_endpoints: WebhookEndpointTable;
    webhook_deliveries: WebhookDeliveryTable;
    webhook_attempts: WebhookAttemptTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const webhooksMigrations: readonly Migration[] = [
  // Also adds an index on events (events).
  { version: 6, name: 'webhooks', up: m006.up },
];
