import { call, callPage, configureApi, qs } from '../ui-kit/api.js';

export { ApiError, CHANGED, maybeSignedIn, qs, setCsrf, whenSignedOut } from '../ui-kit/api.js';

/**
 * The dashboard's calls: the merchant API (/api/v1/cp) and the account routes (/dashboard/api),
 * both with the session cookie and, on writes, its CSRF token (ui-kit/api.ts). The server decides
 * what a role may do; the pages only hide what it would refuse.
 */
configureApi({
  name: 'dashboard',
  idempotentPrefix: '/api/v1/cp/',
  changesPrefix: '/',
  // Sign-in, session, invitation and reset answers a 401 as "not (yet) signed in".
  isSignIn: (path) => /^\/dashboard\/api\/(sign-in|session|invitations|totp|password-reset)/.test(path),
});

export type Role = 'owner' | 'admin' | 'developer' | 'viewer';

/** The session as /dashboard/api/session answers it (docs/dashboard.md, "Accounts and sign-in"). */
export interface Session {
  user: { id: string; email: string };
  role: Role;
  merchant: { id: string; name: string };
  scopes: string[];
  csrfToken: string;
  expiresAt: string;
}

type Write = 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const cp = <T = unknown>(path: string, params: Record<string, string | undefined> = {}) =>
  call<T>('GET', `/api/v1/cp${path}${qs(params)}`);
/** A page of a merchant list (`?cursor=` from the pager). */
export const cpPage = <T = unknown>(path: string, params: Record<string, string | undefined> = {}) =>
  callPage<T>(`/api/v1/cp${path}${qs(params)}`);
export const cpWrite = <T = unknown>(method: Write, path: string, body: unknown = {}) =>
  call<T>(method, `/api/v1/cp${path}`, method === 'DELETE' ? undefined : body);
export const dash = <T = unknown>(path: string, params: Record<string, string | undefined> = {}) =>
  call<T>('GET', `/dashboard/api${path}${qs(params)}`);
export const dashWrite = <T = unknown>(method: Write, path: string, body: unknown = {}) =>
  call<T>(method, `/dashboard/api${path}`, method === 'DELETE' ? undefined : body);

/** What a role may do in the dashboard's own routes (the merchant API goes by `scopes`). */
export const manages = (s: Session) => s.role === 'owner' || s.role === 'admin';
export const develops = (s: Session) => manages(s) || s.role === 'developer';
export const can = (s: Session, scope: string) => s.scopes.includes(scope);
