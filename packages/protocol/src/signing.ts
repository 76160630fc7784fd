import { createHmac } from 'node:crypto';

/**
 * Request signing, interface §5: lowercase hex HMAC-SHA256 of `<timestamp>.<body>` keyed with the
 * API secret. A JSON body is signed in its compact form (whitespace outside strings removed, key
 * order, escapes and number text kept exactly), so a body pretty-printed by one library and
 * compacted by another still verifies.
 */
export function signedString(timestamp: string, body: string): string {
  return `${timestamp}.${body}`;
}

/**
 * The compact re-serialisation of a JSON text: insignificant whitespace removed, nothing else
 * changed. Not JSON.stringify(JSON.parse(x)), which would reorder integer-like keys and round
 * large numbers. Returns the input unchanged when it is not a JSON object or array text.
 */
export function compactJson(raw: string): string {
  const first = raw.trimStart()[0];
  if (first !== '{' && first !== '[') return raw;
  let out = '';
  let inString = false;
  let runStart = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 32 || c === 9 || c === 10 || c === 13) {
      out += raw.slice(runStart, i);
      runStart = i + 1;
    }
  }
  return out + raw.slice(runStart);
}

/** The body text that gets signed: the compact form for JSON, the raw text otherwise. */
export function bodyToSign(body: string): string {
  return body === '' ? '' : compactJson(body);
}

/** Signs a request (Node): `sign(secret, timestamp, body)` -> 64 lowercase hex characters. */
export function sign(secret: string | Uint8Array, timestamp: string, body = ''): string {
  return createHmac('sha256', secret).update(signedString(timestamp, bodyToSign(body))).digest('hex');
}

/** Whole Unix seconds as a decimal string, the only accepted timestamp form. */
export function unixTimestamp(nowMs: number = Date.now()): string {
  return String(Math.floor(nowMs / 1000));
}

export const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;
export const TIMESTAMP_PATTERN = /^[0-9]{1,12}$/;
