import { randomUUID } from 'node:crypto';
import { jsonDecimal, parseExactJson } from '@hostpay/protocol';
import { CommandError } from '../output.js';
import { fromWire } from './exact.js';

/** Options of an operator write. */
export interface Write {
  /**
   * Sent as the Idempotency-Key header (default: a random UUID per call), so a retried request
   * is applied once.
   */
  idempotencyKey?: string | undefined;
}

export const ADMIN_PREFIX = '/admin/v1';
const TIMEOUT_MS = 15_000;

export type Query = Record<string, string | number | boolean | undefined>;

export interface AdminRequest {
  query?: Query;
  /** JSON body; decimals are already exact strings, so JSON.stringify keeps them. */
  body?: unknown;
  /** Set on every change: it carries the Idempotency-Key. */
  write?: Write | undefined;
}

export interface AdminHttpOptions {
  /** Server address, with or without the /admin/v1 prefix. */
  url: string;
  token: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/**
 * One admin API call: bearer token, Idempotency-Key on writes (the given key, else a new UUID),
 * the envelope unwrapped. Numbers are read losslessly (parseExactJson) and come back as exact
 * strings; a failure becomes `CODE: message (request id …)`.
 */
export function adminHttp(opts: AdminHttpOptions): AdminCall {
  const base = opts.url.replace(/\/+$/, '').replace(/\/admin\/v1$/, '') + ADMIN_PREFIX;
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;

  async function exchange(
    method: string,
    path: string,
    req: AdminRequest = {},
  ): Promise<{ result: unknown; replayed: boolean }> {
    const url = base + path + queryString(req.query);
    const headers: Record<string, string> = { authorization: `Bearer ${opts.token}`, accept: 'application/json' };
    let body: string | null = null;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }
    if (req.write !== undefined) headers['idempotency-key'] = req.write.idempotencyKey ?? randomUUID();
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
      text = await response.text();
    } catch (err) {
      if (err instanceof Error && err.name === 'TimeoutError')
        throw new CommandError('TIMEOUT', `no answer from ${base} within ${timeoutMs / 1000} s`);
      throw new CommandError(
        'UNAVAILABLE',
        `cannot reach ${base}${rootCause(err)}; check --admin-url or HOSTPAY_ADMIN_URL`,
      );
    }
    const result = unwrap(response, text, `${method} ${url}`);
    return { result, replayed: response.headers.get(REPLAYED_HEADER) === 'true' };
  }

  const call = async <T>(method: string, path: string, req?: AdminRequest): Promise<T> =>
    (await exchange(method, path, req)).result as T;
  return Object.assign(call, { exchange });
}

/** Set by the server on the stored answer of a write repeated with the same Idempotency-Key. */
const REPLAYED_HEADER = 'idempotent-replayed';

export interface AdminCall {
  /** The envelope's `result`, decimals as exact strings. */
  <T>(method: string, path: string, req?: AdminRequest): Promise<T>;
  /** The same, and whether the server replayed the answer of an earlier request with this Idempotency-Key. */
  exchange(method: string, path: string, req?: AdminRequest): Promise<{ result: unknown; replayed: boolean }>;
}

/** `/x/${id}` with the id encoded: ids come from the command line. */
export const seg = (value: string): string => encodeURIComponent(value);

function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The envelope's result, or the CommandError its error (or a body that is none) stands for. */
export function unwrap(response: Response, text: string, what: string): unknown {
  let doc: unknown;
  try {
    doc = parseExactJson(text, jsonDecimal);
  } catch {
    doc = undefined;
  }
  const env = doc as
    | {
        status?: unknown;
        message?: unknown;
        result?: unknown;
        error?: { code?: unknown; requestId?: unknown; details?: Record<string, unknown> };
      }
    | undefined;
  if (response.ok && env?.status === true) return fromWire(env.result);
  const headerId = response.headers.get('x-request-id') ?? undefined;
  if (env?.status === false && typeof env.error?.code === 'string') {
    const requestId = typeof env.error.requestId === 'string' ? env.error.requestId : headerId;
    throw new CommandError(
      env.error.code,
      typeof env.message === 'string' ? env.message : `HTTP ${response.status}`,
      requestId,
      { status: response.status, details: env.error.details },
    );
  }
  throw new CommandError(
    'UNEXPECTED_RESPONSE',
    `${what} answered HTTP ${response.status} without a hostpay envelope: is the admin URL a hostpay server with the admin API enabled (HOSTPAY_ADMIN_TOKEN set on the server)?`,
    headerId,
    { status: response.status },
  );
}

/** The innermost cause (fetch says "fetch failed"; its cause says ECONNREFUSED). */
function rootCause(err: unknown): string {
  let message: string | undefined;
  for (let e: unknown = (err as { cause?: unknown }).cause; e instanceof Error; e = e.cause) message = e.message;
  return message === undefined ? '' : `: ${message}`;
}
