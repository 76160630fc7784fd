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

/**
 * Sends a signed write and reads its answer. The server accepts a signed write once, and the same
 * write made twice in one second signs the same (timestamps are whole seconds: a token for
 * `hostpay listen` and one for a `hostpay trigger` started at once, say). Nothing was done then,
 * so, as the client does, it is signed again in the next second, once. `send` signs at `nowMs`.
 */
export async function sendSigned(
  send: (nowMs: number) => Promise<Response>,
): Promise<{ status: number; text: string }> {
  const first = await send(Date.now());
  const text = await first.text();
  if (first.status !== 409 || !isSignatureReused(text)) return { status: first.status, text };
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 1));
  const again = await send(Date.now());
  return { status: again.status, text: await again.text() };
}

function isSignatureReused(text: string): boolean {
  try {
    return (JSON.parse(text) as { error?: { code?: unknown } }).error?.code === 'SIGNATURE_REUSED';
  } catch {
    return false;
  }
}
