import type { Migration } from '../../store/migrate.js';
import * as m004 from './migrations/004-signature-version.js';

// The keys feature's tables (added to the store's Database below) and the migrations that made them.

export interface ApiKeyTable {
  id: string;
  merchant_id: string;
  /** AES-256-GCM sealed secret: base64 of iv(12) | tag(16) | ciphertext. */
  secret_sealed: string;
  scopes: string; // JSON array
  status: 'active' | 'revoked';
  expires_at: string | null;
  ip_allow_list: string | null; // JSON array of CIDR strings
  rate_limit_per_minute: number | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  /** Set on a key replaced by rotation: the new key's id. */
  rotated_to: string | null;
  label: string | null;
  /** 1: version-1 signatures are refused for this key (v4). */
  require_signature_v2: number;
}

/** A platform key may act for the sub-merchants an operator granted it. */
export interface MerchantGrantTable {
  key_id: string;
  merchant_id: string;
  created_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    api_keys: ApiKeyTable;
    merchant_grants: MerchantGrantTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const keysMigrations: readonly Migration[] = [{ version: 4, name: 'signature-version', up: m004.up }];
