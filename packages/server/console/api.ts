import { parseExactJson } from '@hostpay/protocol/exact-json';

/**
 * Every call of the console goes to the operator API (/admin/v1) or the session routes, with the
 * session cookie (same origin) and, on writes, the session's CSRF token. Answers are read with
 * the protocol's exact JSON parser: every number arrives as its decimal text, so no amount ever
 * passes through a float.
 */
export type Json = null | boolean | string | Json[] | { [k: string]: Json };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

let csrfToken = '';
let onSignedOut: () => void = () => undefined;

export function setCsrf(token: string): void {
  csrfToken = token;
}
export function whenSignedOut(f: () => void): void {
  onSignedOut = f;
}

/** The envelope every answer comes in (a JSON body of any other shape reads as a failure). */
interface Answer {
  status?: unknown;
  result?: unknown;
  message?: unknown;
  error?: { code?: unknown; requestId?: string };
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (WRITES.has(method)) {
    headers['x-csrf-token'] = csrfToken;
    // A retried click or double submit answers the first result instead of acting twice.
    if (path.startsWith('/admin/')) headers['idempotency-key'] = `console-${crypto.randomUUID()}`;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: Answer | null;
  try {
    parsed = parseExactJson(text) as Answer | null;
  } catch {
    throw new ApiError(res.status, 'INTERNAL', `the server answered HTTP ${res.status} without JSON`);
  }
  if (parsed?.status !== true) {
    const code = String(parsed?.error?.code ?? 'INTERNAL');
    if (res.status === 401 && !path.startsWith('/console/session')) onSignedOut();
    throw new ApiError(res.status, code, String(parsed?.message ?? `HTTP ${res.status}`), parsed?.error?.requestId);
  }
  // A write changed something: every list on screen loads again (ui.tsx useAsync listens).
  if (WRITES.has(method) && path.startsWith('/admin/')) window.dispatchEvent(new Event(CHANGED));
  return parsed.result as T;
}

/** Fired on window after every successful operator write. */
export const CHANGED = 'hostpay:changed';

export const admin = <T = unknown>(path: string) => call<T>('GET', `/admin/v1${path}`);
export const adminWrite = <T = unknown>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown = {},
) => call<T>(method, `/admin/v1${path}`, body);

/** `?a=1&b=2` of the defined, non-empty values. */
export function qs(params: Record<string, string | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}
