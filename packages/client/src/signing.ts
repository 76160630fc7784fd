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

/**
 * Version 2 (header `signature-version: 2`): `<timestamp>.<METHOD>.<canonical path?query>.<body>`,
 * so a signature is good for one request target only. `target` is the path and query as sent.
 */
export async function signV2(
  secret: string,
  timestamp: string,
  method: string,
  target: string,
  body = '',
): Promise<string> {
  return hmacHex(
    secret,
    `${timestamp}.${method.toUpperCase()}.${canonicalTarget(target)}.${body && compactJson(body)}`,
  );
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
export async function signatureHeaders(
  secret: string,
  version: 1 | 2,
  timestamp: string,
  method: string,
  url: string,
  body: string,
): Promise<Record<string, string>> {
  if (version === 1) return { signature: await sign(secret, timestamp, body) };
  // The path and query as they go over the wire (what the server verifies): the URL minus its origin.
  const target = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
  return { 'signature-version': '2', signature: await signV2(secret, timestamp, method, target, body) };
}
/** `sign(secret, timestamp, body)`: the `signature` header for a request, as the server checks it. */
export async function sign(secret: string, timestamp: string, body = ''): Promise<string> {
  return hmacHex(secret, `${timestamp}.${body && compactJson(body)}`);
}
