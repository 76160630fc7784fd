import { SCOPES, type Scope } from '@hostpay/protocol';
import type { Role } from '../../auth/principal.js';

export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const satisfies readonly Role[];
export type { Role };

const READ: readonly Scope[] = SCOPES.filter((s) => s.endsWith(':read'));

/**
 * The scopes each role maps onto, the same API keys carry (docs/dashboard.md): owners and admins
 * everything (payouts:write included), developers every read plus checkouts, webhooks, payment links
 * and invoices, viewers
 * the reads only.
 */
export const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = {
  owner: SCOPES,
  admin: SCOPES,
  developer: [...READ, 'checkout:write', 'webhooks:write', 'links:write', 'invoices:write'],
  viewer: READ,
};

export const ALL_ROLES: readonly Role[] = ROLES;
export const TEAM_ADMINS: readonly Role[] = ['owner', 'admin'];
