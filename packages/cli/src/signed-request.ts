import { sign, signV2, unixTimestamp } from '@hostpay/protocol';
import type { Credentials } from './credentials.js';

/**
 * The authentication headers of interface §5 for one request. Given the request's method and URL,
 * version 2 (the default) signs `<timestamp>.<METHOD>.<path?query>.<body>`, so the signature is
 * good for that request only; without them, or with `signatureVersion: 1`, version 1 signs
 * `<timestamp>.<body>`. Either way a fresh one is needed every minute.
 */
export function authHeaders(
  creds: Credentials,
  body = '',
  nowMs = Date.now(),
  request?: { method: string; url: string },
): Record<string, string> {
  const timestamp = unixTimestamp(nowMs);
  const headers: Record<string, string> = { 'api-key': creds.apiKey, timestamp };
  if (request !== undefined && (creds.signatureVersion ?? 2) === 2) {
    headers['signature-version'] = '2';
    headers.signature = signV2(creds.apiSecret, timestamp, request.method, targetOf(request.url), body);
  } else {
    headers.signature = sign(creds.apiSecret, timestamp, body);
  }
  if (creds.token !== undefined) headers['Authorization'] = `Bearer ${creds.token}`;
  return headers;
}

/** The path and query of a URL (what the server sees on its request line). */
function targetOf(url: string): string {
  const u = new URL(url, 'http://localhost');
  return u.pathname + u.search;
}
