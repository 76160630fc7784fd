import { DECIMAL_FIELDS, HostpayClient, isHostpayError } from '@hostpay/client';
import { jsonDecimal } from '@hostpay/protocol';
import type { Credentials } from './credentials.js';
import { CommandError } from './output.js';

/** One command is one short conversation with the server: a tighter budget than the client's 30 s default. */
const TIMEOUT_MS = 15_000;

/**
 * The merchant client for one command. Amounts stay the client's default exact strings. Without
 * `--token`/`HOSTPAY_TOKEN` the client obtains its own token for this process.
 */
export function merchantClient(
  creds: Pick<Credentials, 'baseUrl' | 'apiKey' | 'apiSecret' | 'signatureVersion'> & { token?: string | undefined },
): HostpayClient {
  return new HostpayClient({
    baseUrl: creds.baseUrl,
    apiKey: creds.apiKey,
    apiSecret: creds.apiSecret,
    bearerToken: creds.token,
    timeoutMs: TIMEOUT_MS,
    signatureVersion: creds.signatureVersion ?? 2,
  });
}

/** Codes that can only mean the token the user gave is bad (the client renews its own tokens). */
const GIVEN_TOKEN_CODES = new Set(['TOKEN_EXPIRED', 'INVALID_TOKEN', 'TOKEN_KEY_MISMATCH']);

/**
 * Runs one client call. Server errors pass through (code, message and request id reach the error
 * line as they are); a server that cannot be reached gets a message that names the address, and
 * a rejected token the user supplied says where it came from (a stale HOSTPAY_TOKEN exported from
 * the sandbox banner an hour ago is the usual case).
 */
export async function callServer<T>(
  creds: { baseUrl: string; token?: string | undefined },
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!isHostpayError(err)) throw err;
    if (err.code === 'NETWORK_ERROR' || err.code === 'TIMEOUT') {
      const cause = rootCause(err);
      const what =
        err.code === 'TIMEOUT'
          ? `no answer from ${creds.baseUrl} within ${TIMEOUT_MS / 1000} s`
          : `cannot reach ${creds.baseUrl}${cause ? `: ${cause}` : ''}`;
      throw new CommandError(err.code, `${what}; check --base-url, or start a sandbox with npx hostpay serve --demo`);
    }
    if (creds.token !== undefined && GIVEN_TOKEN_CODES.has(err.code)) {
      const hint =
        'the token came from --token or HOSTPAY_TOKEN: leave both out and hostpay obtains a fresh one itself';
      throw new CommandError(err.code, `${err.message.replace(/[.\s]+$/, '')}; ${hint}`, err.requestId, {
        status: err.status,
        details: err.details,
      });
    }
    throw err;
  }
}

/** The innermost error message (fetch says "fetch failed"; its cause says ECONNREFUSED). */
function rootCause(err: unknown): string | undefined {
  let message: string | undefined;
  for (let e: unknown = (err as { cause?: unknown }).cause; e instanceof Error; e = e.cause) message = e.message;
  return message;
}

const DECIMALS = new Set<string>(DECIMAL_FIELDS);

/**
 * A client result ready for `--json`: the exact decimal strings become JSON number literals
 * again (JsonDecimal), so the document has the API's own numbers, digit for digit.
 */
export function withJsonDecimals(value: unknown, key = ''): unknown {
  if (typeof value === 'string' && DECIMALS.has(key)) return jsonDecimal(value);
  if (Array.isArray(value)) return value.map((item) => withJsonDecimals(item));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withJsonDecimals(v, k)]));
  }
  return value;
}
