import type { Scope } from '@hostpay/protocol';

// Apart from principal.ts so that ports.ts can name a session without a loop: principal.ts imports ports.ts.

/** A merchant user's role (features/merchant-users); the dashboard maps it onto scopes. */
export type Role = 'owner' | 'admin' | 'developer' | 'viewer';

/** Signed in to the merchant dashboard: a session cookie of a merchant user. */
export interface SessionPrincipal {
  via: 'session';
  merchantId: string;
  userId: string;
  email: string;
  role: Role;
  /** The scopes the role maps onto (the same as API keys carry). */
  scopes: readonly Scope[];
  /** SHA-256 of the session id (what the store keeps): names the session without being it. */
  sessionHash: string;
}
