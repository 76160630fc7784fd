import { resignOnReuse } from '@hostpay/client';
import { PATHS, type TokenResult } from '@hostpay/protocol';
import { urlFor, type Credentials } from './credentials.js';
import { CommandError } from './output.js';
import { authHeaders } from './signed-request.js';

/**
 * POST /api/v1/auth/token with the three signed API-key headers. The body is sent only when a
 * lifetime is asked for, and it is signed exactly as sent.
 */
export async function requestToken(creds: Credentials, expiresIn?: number): Promise<TokenResult> {
  const url = urlFor(creds.baseUrl, PATHS.token);
  const body = expiresIn === undefined ? '' : JSON.stringify({ expiresIn });
  let answer: { status: number; text: string };
  try {
    const res = await resignOnReuse((nowMs) => {
      const headers = authHeaders({ ...creds, token: undefined }, body, nowMs, { method: 'POST', url });
      if (body !== '') headers['content-type'] = 'application/json';
      return fetch(url, {
        method: 'POST',
        headers,
        body: body === '' ? null : body,
        signal: AbortSignal.timeout(15_000),
      });
    });
    answer = { status: res.status, text: await res.text() };
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new CommandError(
      'UNAVAILABLE',
      `cannot reach ${url}: ${cause}; is the server running (npx hostpay serve --demo)?`,
    );
  }
  return envelopeResult(url, answer.status, answer.text) as TokenResult;
}

/** The `result` of a success envelope; a failure envelope becomes its code and message. */
function envelopeResult(url: string, status: number, text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const env = parsed as
    | {
        status?: unknown;
        message?: unknown;
        result?: unknown;
        error?: { code?: unknown; requestId?: unknown; details?: Record<string, unknown> };
      }
    | undefined;
  if (env?.status === true && typeof env.result === 'object' && env.result !== null) return env.result;
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
  );
}
