import type { Database } from '../../store/database.js';
import { apiKeyOwner, rpcOwner } from '../chain-watch/node-url.js';
import { accountKeyOwner } from '../addresses/sealed-key.js';
import { hotWalletOwner } from '../hot-wallet/key.js';
import { secretOwner, urlOwner } from '../webhooks/service.js';
import { sourceOwner } from '../rates/source-url.js';
import { mailOwner } from '../mail/enqueue.js';
import { invoiceTokenOwner } from '../invoices/token.js';

/** The columns of table `T` that hold text (or null): the only ones a sealed value can be in. */
type TextColumn<T extends keyof Database> = {
  [C in keyof Database[T]]: Database[T][C] extends string | null ? C : never;
}[keyof Database[T]] &
  string;

/**
 * A column holding values sealed under the master key. The owner id is the box's associated
 * data, so it must be derived exactly as the code that sealed the value derives it, or the value
 * will not open.
 */
export interface SealedColumn {
  readonly table: keyof Database;
  /** The row's key: the owner id is made of it, and a re-seal writes back to the row it names. */
  readonly key: readonly string[];
  readonly column: string;
  readonly owner: (key: Readonly<Record<string, string>>) => string;
  /** Rows whose non-null value is not sealed (a pending idempotency claim's empty body) are left out by it. */
  readonly only?: { readonly column: string; readonly not: number };
}

/** Checks table and column names against the schema; the list below is otherwise untyped. */
function sealed<T extends keyof Database, K extends TextColumn<T>>(spec: {
  table: T;
  key: readonly K[];
  column: TextColumn<T>;
  owner: (key: Readonly<Record<K, string>>) => string;
  only?: { column: keyof Database[T] & string; not: number };
}): SealedColumn {
  return spec as unknown as SealedColumn;
}

/**
 * Every column a master key rotation re-seals, in the order it re-seals them. A new sealed
 * column belongs here, or a rotation leaves it under the old key, which then cannot be retired;
 * test/master-key-sealed-columns.test.ts fails for a `*_sealed` column missing from it.
 */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  // The public page tokens of finalized invoices (invoices/token.ts).
  sealed({ table: 'invoices', key: ['id'], column: 'token_sealed', owner: (k) => invoiceTokenOwner(k.id) }),
  sealed({ table: 'api_keys', key: ['id'], column: 'secret_sealed', owner: (k) => k.id }),
  // The token signing key (tokens/signing-key.ts).
  sealed({ table: 'server_secrets', key: ['name'], column: 'sealed', owner: (k) => `server:${k.name}` }),
  // Stored admin answers (idempotent replays) can hold a new API secret; a pending claim's body is ''.
  sealed({
    table: 'admin_idempotency',
    key: ['operator', 'key'],
    column: 'body',
    owner: (k) => `idempotency:${k.operator}:${k.key}`,
    only: { column: 'status', not: 0 },
  }),
  // Webhook endpoint secrets (current and, while a rotation overlaps, previous) and URLs.
  sealed({ table: 'webhook_endpoints', key: ['id'], column: 'secret_sealed', owner: (k) => secretOwner(k.id) }),
  sealed({
    table: 'webhook_endpoints',
    key: ['id'],
    column: 'previous_secret_sealed',
    owner: (k) => secretOwner(k.id, 'previous'),
  }),
  sealed({ table: 'webhook_endpoints', key: ['id'], column: 'url_sealed', owner: (k) => urlOwner(k.id) }),
  // Account xpubs (whoever holds one links every deposit address of its chains).
  sealed({ table: 'account_keys', key: ['id'], column: 'xpub_sealed', owner: (k) => accountKeyOwner(k.id) }),
  // Dashboard users' TOTP secrets (whoever holds one makes that user's codes).
  sealed({ table: 'merchant_users', key: ['id'], column: 'totp_secret_sealed', owner: (k) => k.id }),
  // Chain watch node URLs (they carry the provider's key) and API keys.
  sealed({ table: 'chain_watches', key: ['chain_id'], column: 'rpc_url_sealed', owner: (k) => rpcOwner(k.chain_id) }),
  sealed({
    table: 'chain_watches',
    key: ['chain_id'],
    column: 'api_key_sealed',
    owner: (k) => apiKeyOwner(k.chain_id),
  }),
  // Rate source URLs (a self-hosted proxy's may carry a key).
  sealed({ table: 'rate_sources', key: ['id'], column: 'base_url_sealed', owner: (k) => sourceOwner(k.id) }),
  // EVM hot wallet keys (they spend).
  sealed({ table: 'hot_wallets', key: ['chain_id'], column: 'key_sealed', owner: (k) => hotWalletOwner(k.chain_id) }),
  // Mails holding a link token (invitations, password resets, …) until 7 days after sending.
  sealed({ table: 'mail_outbox', key: ['id'], column: 'data_sealed', owner: (k) => mailOwner(k.id) }),
];
