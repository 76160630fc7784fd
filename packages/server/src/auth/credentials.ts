import { SIGNATURE_VERSION_HEADER, TIMESTAMP_PATTERN } from '@hostpay/protocol';
import type { IncomingHttpHeaders } from 'node:http';
import { HostpayError } from '../errors.js';

/**
 * Steps a and b of authentication: the headers are there and the timestamp is fresh. Both are
 * pure string checks, done before anything touches the key store.
 */
export interface SignedHeaders {
  apiKey: string;
  timestamp: string;
  signature: string;
  /** The Authorization header when a bearer is required, else ''. */
  authorization: string;
  /** `signature-version`: 1 (absent) signs `<timestamp>.<body>`, 2 also the method and target. */
  version: 1 | 2;
}

const KEY_HEADERS = ['api-key', 'timestamp', 'signature'] as const;

export function readSignedHeaders(headers: IncomingHttpHeaders, withBearer: boolean): SignedHeaders {
  const apiKey = headers['api-key'];
  const timestamp = headers.timestamp;
  const signature = headers.signature;
  const authorization = headers.authorization;
  if (present(apiKey) && present(timestamp) && present(signature) && (!withBearer || present(authorization))) {
    return {
      apiKey,
      timestamp,
      signature,
      authorization: withBearer ? (authorization ?? '') : '',
      version: signatureVersion(headers[SIGNATURE_VERSION_HEADER]),
    };
  }
  const missing: string[] = KEY_HEADERS.filter((name) => !present(headers[name]));
  if (withBearer && !present(headers.authorization)) missing.push('authorization');
  const needed = withBearer
    ? 'api-key, timestamp, signature and Authorization: Bearer <token> (token from POST /api/v1/auth/token)'
    : 'api-key, timestamp and signature';
  throw new HostpayError(
    'MISSING_HEADER',
    `missing header${missing.length > 1 ? 's' : ''} ${missing.map((h) => `\`${h}\``).join(', ')}: every request to this endpoint needs ${needed}`,
    { missing },
  );
}

function signatureVersion(value: string | string[] | undefined): 1 | 2 {
  if (value === undefined || value === '1') return 1;
  if (value === '2') return 2;
  throw new HostpayError(
    'INVALID_SIGNATURE',
    'header `signature-version` must be 1 or 2 (or absent, for 1): version 2 signs `<timestamp>.<METHOD>.<path?query>.<body>`',
    { signatureVersion: 'unsupported' },
  );
}

function present(value: string | string[] | undefined): value is string {
  return typeof value === 'string' && value !== '';
}

export function checkTimestamp(timestamp: string, nowMs: number, toleranceSeconds: number, sandbox = false): void {
  if (!TIMESTAMP_PATTERN.test(timestamp)) {
    throw new HostpayError(
      'INVALID_TIMESTAMP',
      'header `timestamp` must be the current Unix time in whole seconds, digits only (e.g. 1700000000): not milliseconds, not a date',
    );
  }
  const serverTime = Math.floor(nowMs / 1000);
  const sent = Number(timestamp);
  const skew = sent - serverTime;
  if (Math.abs(skew) <= toleranceSeconds) return;
  throw new HostpayError(
    'TIMESTAMP_OUT_OF_WINDOW',
    `header \`timestamp\` ${sent} is ${Math.abs(skew)} s ${skew < 0 ? 'behind' : 'ahead of'} the server time ${serverTime} (allowed ±${toleranceSeconds} s): ` +
      'sync your clock, or read the server time from GET /api/v1/time, and sign with a fresh timestamp',
    // The skew is a sandbox diagnostic; serverTime stays everywhere (clients correct their clock by it).
    sandbox
      ? { serverTime, timestamp: sent, toleranceSeconds, skewSeconds: skew }
      : { serverTime, timestamp: sent, toleranceSeconds },
  );
}
