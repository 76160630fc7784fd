/**
 * Request signing with Web Crypto (interface §5): lowercase hex HMAC-SHA256 of
 * `<timestamp>.<body>` keyed with the API secret, a JSON body signed in its compact form.
 */

const utf8 = (text: string) => new TextEncoder().encode(text);

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

/** Imports the API secret once as an HMAC key; the key cannot be exported again. */
export function importSecret(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** Signs with an imported key: 64 lowercase hex characters. */
export async function signWithKey(key: CryptoKey, timestamp: string, body = ''): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, utf8(`${timestamp}.${body && compactJson(body)}`));
  let hex = '';
  for (const byte of new Uint8Array(mac)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** `sign(secret, timestamp, body)`: the `signature` header for a request, as the server checks it. */
export async function sign(secret: string, timestamp: string, body = ''): Promise<string> {
  return signWithKey(await importSecret(secret), timestamp, body);
}
