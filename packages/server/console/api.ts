import { call } from '../ui-kit/api.js';

export { ApiError, call, maybeSignedIn, qs, setCsrf, whenSignedOut } from '../ui-kit/api.js';

/** The console's calls: the operator API (/admin/v1), with ui-kit's defaults (ApiOptions). */
export const admin = <T = unknown>(path: string) => call<T>('GET', `/admin/v1${path}`);
export const adminWrite = <T = unknown>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown = {},
) => call<T>(method, `/admin/v1${path}`, body);
