import { sign, unixTimestamp } from '@hostpay/protocol';
import type { Credentials } from './credentials.js';

/**
 * The authentication headers of interface §5 for one request. The signature covers
 * `<timestamp>.<body>` only (not the path), so a fresh one is needed per request and per minute.
 */
export function authHeaders(creds: Credentials, body = '', nowMs = Date.now()): Record<string, string> {
  const timestamp = unixTimestamp(nowMs);
  const headers: Record<string, string> = {
    'api-key': creds.apiKey,
    timestamp,
    signature: sign(creds.apiSecret, timestamp, body),
  };
  if (creds.token !== undefined) headers['Authorization'] = `Bearer ${creds.token}`;
  return headers;
}
