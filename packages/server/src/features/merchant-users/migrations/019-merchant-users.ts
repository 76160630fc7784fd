import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v19: merchant users, who sign in to the merchant dashboard (docs/dashboard.md).
 * Passwords are argon2id hashes (the PHC string carries its parameters); the TOTP secret is
 * sealed under the master key like API secrets; recovery codes, invitation and reset tokens and
 * session ids are kept as SHA-256 only, so a copy of the database signs nobody in. The security
 * log is the merchant's own audit trail, listed to its owners and admins.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('merchant_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('totp_secret_sealed', 'text')
    .addColumn('totp_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('totp_last_step', 'integer')
    .addColumn('failed_sign_ins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', t.time)
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addColumn('last_sign_in_at', t.time)
    .addUniqueConstraint('merchant_users_email', ['merchant_id', 'email'])
    .execute();
  await db.schema.createIndex('merchant_users_by_email').on('merchant_users').columns(['email']).execute();

  await db.schema
    .createTable('merchant_user_recovery_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('merchant_users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', t.time)
    .addPrimaryKeyConstraint('merchant_user_recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();

  // Invitations and password-reset links: one-time tokens, hashed.
  await db.schema
    .createTable('merchant_user_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .addColumn('used_at', t.time)
    .addColumn('revoked_at', t.time)
    .execute();
  await db.schema
    .createIndex('merchant_user_links_merchant')
    .on('merchant_user_links')
    .columns(['merchant_id', 'kind'])
    .execute();

  await db.schema
    .createTable('merchant_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('merchant_users.id').onDelete('cascade'))
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('last_seen_at', t.time, (c) => c.notNull())
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('merchant_sessions_user').on('merchant_sessions').columns(['user_id']).execute();
  await db.schema.createIndex('merchant_sessions_expiry').on('merchant_sessions').columns(['expires_at']).execute();

  await db.schema
    .createTable('merchant_security_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('at', t.time, (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('user_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('details', 'text')
    .execute();
  await db.schema
    .createIndex('merchant_security_log_merchant')
    .on('merchant_security_log')
    .columns(['merchant_id', 'id'])
    .execute();
}
