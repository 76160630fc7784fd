import { hmacHex } from './hmac.js';

/**
 * Request signing (interface §5): lowercase hex HMAC-SHA256 of `<timestamp>.<body>` keyed with
 * the API secret, a JSON body signed in its compact form. The HMAC is Node's where the runtime
 * has it, else Web Crypto (hmac.ts).
 */

/**
 * The compact form of a JSON text: whitespace outside strings removed, nothing else changed
 * (key order, escapes and number text kept). Any other text is returned as it is.
 */
export function compactJson(raw: string): string {
  const first = raw.trimStart()[0];
  if (first !== '{' && first !== '[') return raw;
  let out = '';
  let inString = false;
  let runStart = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      out += raw.slice(runStart, i);
      runStart = i + 1;
    }
  }
  return out + raw.slice(runStart);
}

/** `sign(secret, timestamp, body)`: the `signature` header for a request, as the server checks it. */
export async function sign(secret: string, timestamp: string, body = ''): Promise<string> {
  return hmacHex(secret, `${timestamp}.${body && compactJson(body)}`);
}
