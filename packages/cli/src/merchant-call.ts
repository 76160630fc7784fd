import { resignOnReuse } from '@hostpay/client';
import { parseExactJson } from '@hostpay/protocol';
import { urlFor, type Credentials } from './credentials.js';
import { CommandError } from './output.js';
import { authHeaders } from './signed-request.js';
import { requestToken } from './token-request.js';

export interface ApiAnswer<T = unknown> {
  result: T;
  nextCursor?: string | null;
  /** The answer's text as the server sent it (exact decimals), for --json and forwarding. */
  text: string;
}

/**
 * A merchant API call for the commands the client has no method for (events, webhooks, checkouts):
 * the four headers with a version-2 signature over the exact body, one token per command (the
 * given one, else a fresh one), the answer parsed with every number kept as its exact text.
 */
export function merchantCaller(creds: Credentials) {
  let token: Promise<string> | undefined = creds.token === undefined ? undefined : Promise.resolve(creds.token);
  return async function call<T = unknown>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<ApiAnswer<T>> {
    token ??= requestToken(creds).then((t) => t.accessToken);
    const url = urlFor(creds.baseUrl, path);
    const payload = body === undefined ? '' : JSON.stringify(body);
    const bearer = await token;
    let answer: { status: number; text: string };
    try {
      const res = await resignOnReuse((nowMs) => {
        const headers = authHeaders({ ...creds, token: bearer }, payload, nowMs, { method, url });
        if (payload !== '') headers['content-type'] = 'application/json';
        return fetch(url, {
          method,
          headers,
          body: payload === '' ? null : payload,
          signal: AbortSignal.timeout(15_000),
        });
      });
      answer = { status: res.status, text: await res.text() };
    } catch (err) {
      throw cannotReach(url, err);
    }
    return answerOf<T>(answer.status, answer.text, url);
  };
}

/** A request that got no answer: the server is down or unreachable. */
export function cannotReach(url: string, err: unknown): CommandError {
  const cause = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  return new CommandError(
    'UNAVAILABLE',
    `cannot reach ${url}: ${cause}; is the server running (npx hostpay serve --demo)?`,
  );
}

/** A success envelope's result (numbers kept exact); an error envelope as its CommandError; anything else as not hostpay. */
export function answerOf<T>(status: number, text: string, url: string): ApiAnswer<T> {
  let env:
    | {
        status?: unknown;
        message?: unknown;
        result?: unknown;
        nextCursor?: string | null;
        error?: { code?: unknown; requestId?: unknown; details?: Record<string, unknown> };
      }
    | undefined;
  try {
    env = parseExactJson(text) as typeof env;
  } catch {
    env = undefined;
  }
  if (env?.status === true)
    return { result: env.result as T, ...(env.nextCursor === undefined ? {} : { nextCursor: env.nextCursor }), text };
  if (env?.status === false && typeof env.error?.code === 'string') {
    throw new CommandError(
      env.error.code,
      String(env.message),
      typeof env.error.requestId === 'string' ? env.error.requestId : undefined,
      { status, details: env.error.details },
    );
  }
  throw new CommandError(
    'UNEXPECTED_RESPONSE',
    `unexpected HTTP ${status} response from ${url}: not a hostpay envelope`,
    undefined,
    {
      status,
    },
  );
}

export type MerchantCall = ReturnType<typeof merchantCaller>;
