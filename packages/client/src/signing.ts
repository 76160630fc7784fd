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
  return hmacHex(key, `${timestamp}.${body && compactJson(body)}`);
}

/**
 * Version 2 (header `signature-version: 2`): `<timestamp>.<METHOD>.<canonical path?query>.<body>`,
 * so a signature is good for one request target only. `target` is the path and query as sent.
 */
export async function signV2WithKey(key: CryptoKey, timestamp: string, method: string, target: string, body = ''): Promise<string> {
  return hmacHex(key, `${timestamp}.${method.toUpperCase()}.${canonicalTarget(target)}.${body && compactJson(body)}`);
}

/** `signV2(secret, timestamp, method, target, body)`: the version-2 `signature` header. */
export async function signV2(secret: string, timestamp: string, method: string, target: string, body = ''): Promise<string> {
  return signV2WithKey(await importSecret(secret), timestamp, method, target, body);
}

/**
 * The canonical request target of signature version 2 (docs/api.md): path segments and query
 * names and values percent-decoded once and re-encoded (RFC 3986 unreserved characters bare, the
 * rest %XX upper case, `+` in the query a space), query pairs sorted by name then value, empty
 * query parts dropped, the trailing slash kept.
 */
export function canonicalTarget(target: string): string {
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q + 1);
  const pairs = query
    .split('&')
    .filter((part) => part !== '')
    .map((part): [string, string] => {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      const value = eq === -1 ? '' : part.slice(eq + 1);
      return [recode(name.replace(/\+/g, ' ')), recode(value.replace(/\+/g, ' '))];
    })
    .sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const canonicalPath = path.split('/').map(recode).join('/');
  return pairs.length === 0 ? canonicalPath : `${canonicalPath}?${pairs.map(([n, v]) => `${n}=${v}`).join('&')}`;
}

function recode(part: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(part);
  } catch {
    return part;
  }
  return encodeURIComponent(decoded).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** The `signature` (and for version 2 `signature-version`) headers of a request to `url`. */
export async function signatureHeaders(key: CryptoKey, version: 1 | 2, timestamp: string, method: string, url: string, body: string): Promise<Record<string, string>> {
  if (version === 1) return { signature: await signWithKey(key, timestamp, body) };
  // The path and query as they go over the wire (what the server verifies): the URL minus its origin.
  const target = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
  return { 'signature-version': '2', signature: await signV2WithKey(key, timestamp, method, target, body) };
}

async function hmacHex(key: CryptoKey, text: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, utf8(text));
  let hex = '';
  for (const byte of new Uint8Array(mac)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** `sign(secret, timestamp, body)`: the `signature` header for a request, as the server checks it. */
export async function sign(secret: string, timestamp: string, body = ''): Promise<string> {
  return signWithKey(await importSecret(secret), timestamp, body);
}
