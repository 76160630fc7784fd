import type { Scope } from '@hostpay/protocol';
import type { SessionPrincipal } from './session-principal.js';

/**
 * What the HTTP layer needs from the rest of the server. The routes and the authentication hook
 * depend on this interface only; `createMerchantServices` (merchant-services.ts) merges it from the
 * features' `merchantServices` parts.
 */

/** An API key as authentication sees it, secret already decrypted. */
export interface ApiKeyAuth {
  id: string;
  merchantId: string;
  /** The decrypted API secret, as the HMAC key. */
  secret: Buffer;
  scopes: Scope[];
  status: 'active' | 'revoked';
  /** ISO time or null. */
  expiresAt: string | null;
  /** CIDR list (IPv4/IPv6) or null for any address. */
  ipAllowList: string[] | null;
  /** Per-key override of the default per-minute limit, or null. */
  rateLimitPerMinute: number | null;
  /** Version-1 signatures are refused. */
  requireSignatureV2: boolean;
  merchantStatus: 'active' | 'suspended';
}

/**
 * The merchant read path. The kernel's part is written here; a feature whose cached reads it
 * serves adds them from its own folder (`declare module`, as with provisions).
 */
export interface MerchantServices {
  /**
   * Key by public id, or undefined. Cached; invalidated when the key or its merchant changes.
   * A cached answer is returned as it is (no promise), so the request path need not wait a turn.
   */
  findApiKey(keyId: string): ApiKeyAuth | undefined | Promise<ApiKeyAuth | undefined>;
  /** True when `keyId` (of `keyMerchantId`) may act for `merchantId`: same merchant, or a platform grant. */
  canActFor(keyId: string, keyMerchantId: string, merchantId: string): Promise<boolean>;
  /** Throws when the store cannot answer (readyz, 503). */
  checkReady(): Promise<void>;
  /** Secret used to sign bearer tokens (stored sealed in the store, same on every instance). */
  tokenSigningKey: Buffer;
  /** Records that a key was used (throttled to once a minute per key; never blocks the request). */
  touchKey(keyId: string): void;
  /**
   * Records the first use of a signature on a state-changing request, for every instance
   * (auth/single-use.ts): true the first time, false for a replay. Kept until `expiresAtMs`.
   */
  claimSignature(keyId: string, signature: string, expiresAtMs: number): Promise<boolean>;
}

/** What the merchant hook needs of the dashboard's sessions (features/merchant-users provides it). */
export interface MerchantSessionPort {
  /** The session id the request's cookie carries, if any. */
  idOf(req: { headers: { cookie?: string | undefined }; protocol: string }): string | undefined;
  /**
   * The principal of a live, fully signed-in session (marked used); throws 401 SESSION_REQUIRED
   * when there is none, 403 MERCHANT_SUSPENDED when its merchant is suspended.
   */
  principal(sessionId: string): Promise<SessionPrincipal>;
  /** The same, by the stored hash of the id (an open event stream asks again about every second). */
  principalByHash(sessionHash: string): Promise<SessionPrincipal>;
  /** Whether `given` is the session's CSRF token (constant time). */
  csrfMatches(sessionId: string, given: string | undefined): boolean;
}
