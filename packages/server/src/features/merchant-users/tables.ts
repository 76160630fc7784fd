import type { Migration } from '../../store/migrate.js';
import * as m019 from './migrations/019-merchant-users.js';

// The merchant-users feature's tables (added to the store's Database below) and the migrations that made them.

/** A merchant dashboard user (migration 019). */
export interface MerchantUserTable {
  id: string;
  merchant_id: string;
  /** Lower-cased. */
  email: string;
  role: 'owner' | 'admin' | 'developer' | 'viewer';
  /** argon2id PHC string (parameters included). */
  password_hash: string;
  /** The TOTP secret (base32) sealed under the master key, owner id = user id; null until enrolled. */
  totp_secret_sealed: string | null;
  totp_confirmed: number;
  /** The last 30 s step a code was accepted for: that step and earlier ones are refused (replay). */
  totp_last_step: number | null;
  failed_sign_ins: number;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
  last_sign_in_at: string | null;
}

export interface MerchantUserRecoveryCodeTable {
  user_id: string;
  code_hash: string;
  used_at: string | null;
}

/** Invitations and password-reset links (one-time tokens, SHA-256 kept). */
export interface MerchantUserLinkTable {
  id: string;
  kind: 'invitation' | 'reset';
  token_hash: string;
  merchant_id: string;
  email: string;
  role: string;
  /** The user a reset link is for; null for invitations. */
  user_id: string | null;
  /** `user:<id>` or `operator:<name>`. */
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export interface MerchantSessionTable {
  id_hash: string;
  user_id: string;
  /** 'totp': password checked, awaiting the code; 'enrol': awaiting TOTP enrolment; 'full'. */
  stage: 'totp' | 'enrol' | 'full';
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface MerchantSecurityLogTable {
  id: string;
  merchant_id: string;
  at: string;
  user_id: string | null;
  user_email: string | null;
  action: string;
  ip: string | null;
  /** JSON object or null. */
  details: string | null;
}

declare module '../../store/database.js' {
  interface Database {
    merchant_users: MerchantUserTable;
    merchant_user_recovery_codes: MerchantUserRecoveryCodeTable;
    merchant_user_links: MerchantUserLinkTable;
    merchant_sessions: MerchantSessionTable;
    merchant_security_log: MerchantSecurityLogTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const merchantUsersMigrations: readonly Migration[] = [{ version: 19, name: 'merchant-users', up: m019.up }];
