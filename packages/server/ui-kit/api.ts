import { parseExactJson } from '@hostpay/protocol/exact-json';
import { t } from './kit-messages.js';

/**
 * The fetch wrapper of the browser fronts (the operator console, the merchant dashboard): every
 * call goes to the page's own server with the session cookie (same origin) and, on writes, the
 * session's CSRF token. Answers are read with the protocol's exact JSON parser: every number
 * arrives as its decimal text, so no amount ever passes through a float.
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

/** What differs between the fronts: set once by each page's entry before its first call. */
export interface ApiOptions {
  /** Writes under this prefix carry an `idempotency-key`: a retried click answers the first result. */
  idempotentPrefix: string;
  /** The front's name in its idempotency keys. */
  name: string;
  /** A successful write under this prefix reloads every list on screen. */
  changesPrefix: string;
  /** A 401 from these paths is a failed sign-in step, not an ended session. */
  isSignIn: (path: string) => boolean;
}
let options: ApiOptions = {
  idempotentPrefix: '/admin/',
  name: 'console',
  changesPrefix: '/admin/',
  isSignIn: (path) => path.startsWith('/console/session'),
};
export function configureApi(o: ApiOptions): void {
  options = o;
}

/**
 * Whether this browser may have a session: the server sets `<cookie>_hint` (readable, nothing
 * secret) beside a signed-in session cookie. Without it the page shows its sign-in form at once
 * instead of asking for a session it has not got (and logging a 401 in the console).
 */
export function maybeSignedIn(cookie: string): boolean {
  return document.cookie.split(';').some((c) => /^\s*(?:__Host-)?([\w-]+)_hint=1$/.exec(c)?.[1] === cookie);
}

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
  nextCursor?: unknown;
  message?: unknown;
  error?: { code?: unknown; requestId?: string };
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  return (await send(method, path, body)).result as T;
}

/**
 * A page of a merchant list: those answer `result` as the array and carry `nextCursor` beside it
 * in the envelope (the admin lists answer `{items, nextCursor}` as `result`: read those with call).
 */
export async function callPage<T = unknown>(path: string): Promise<{ items: T[]; nextCursor: string | null }> {
  const answer = await send('GET', path);
  const cursor = answer.nextCursor;
  return { items: answer.result as T[], nextCursor: typeof cursor === 'string' ? cursor : null };
}

async function send(method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (WRITES.has(method)) {
    headers['x-csrf-token'] = csrfToken;
    // A retried click or double submit answers the first result instead of acting twice.
    if (path.startsWith(options.idempotentPrefix))
      headers['idempotency-key'] = `${options.name}-${crypto.randomUUID()}`;
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
    throw new ApiError(res.status, 'INTERNAL', t('kit.noJson', { status: res.status }));
  }
  if (parsed?.status !== true) {
    const code = String(parsed?.error?.code ?? 'INTERNAL');
    if (res.status === 401 && !options.isSignIn(path)) onSignedOut();
    throw new ApiError(res.status, code, String(parsed?.message ?? `HTTP ${res.status}`), parsed?.error?.requestId);
  }
  // A write changed something: every list on screen loads again (ui.tsx useAsync listens).
  if (WRITES.has(method) && path.startsWith(options.changesPrefix)) window.dispatchEvent(new Event(CHANGED));
  return parsed;
}

/** Fired on window after every successful write (under ApiOptions.changesPrefix). */
export const CHANGED = 'hostpay:changed';

/** `?a=1&b=2` of the defined, non-empty values. */
export function qs(params: Record<string, string | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}
