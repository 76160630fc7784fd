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
  return createHmac('sha256', secret)
    .update(signedString(timestamp, bodyToSign(body)))
    .digest('hex');
}

/**
 * Signature version 2 (header `signature-version: 2`): the signed string also names the method
 * and the request target, so a captured signature is good for one request only, not for every
 * request with the same body in the same minute:
 *
 *   <timestamp>.<METHOD>.<canonical path?query>.<compact body>
 *
 * See `canonicalTarget` for the path and query rules (docs/api.md, vectors/signing.json `v2`).
 */
export function signedStringV2(timestamp: string, method: string, target: string, body: string): string {
  return `${timestamp}.${method.toUpperCase()}.${canonicalTarget(target)}.${bodyToSign(body)}`;
}

/** Signs a request with version 2 (Node): 64 lowercase hex characters. */
export function signV2(
  secret: string | Uint8Array,
  timestamp: string,
  method: string,
  target: string,
  body = '',
): string {
  return createHmac('sha256', secret)
    .update(signedStringV2(timestamp, method, target, body))
    .digest('hex');
}

/**
 * The canonical form of a request target (`/path?query`, no scheme or host), so that any two
 * spellings of one request sign the same string:
 * - path: each `/`-separated segment is percent-decoded once and re-encoded; a trailing slash is
 *   kept (`/wallets/` and `/wallets` are different targets);
 * - query: split on `&`, empty parts dropped; each part split at its first `=` (none: empty value);
 *   `+` means a space; name and value are percent-decoded once and re-encoded; the pairs are sorted
 *   by name, then value (code-unit order of the encoded text) and joined as `name=value` with `&`;
 *   no query (or only empty parts): no `?`;
 * - encoding: every byte of the UTF-8 text except the RFC 3986 unreserved characters
 *   `A-Z a-z 0-9 - . _ ~` as `%XX` with upper-case hex;
 * - a part whose percent-escapes do not decode to UTF-8 is kept as sent.
 */
export function canonicalTarget(target: string): string {
  // A path of unreserved characters and slashes alone (every merchant route but a query's) is
  // its own canonical form: decoding and encoding each segment gave it back at ~1 % of a create's CPU.
  if (PLAIN_PATH.test(target)) return target;
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? '' : target.slice(q + 1);
  const canonicalPath = path.split('/').map(recode).join('/');
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
  return pairs.length === 0 ? canonicalPath : `${canonicalPath}?${pairs.map(([n, v]) => `${n}=${v}`).join('&')}`;
}

const PLAIN_PATH = /^[A-Za-z0-9\-._~/]*$/;

function recode(part: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(part);
  } catch {
    return part;
  }
  return encodeURIComponent(decoded).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** Whole Unix seconds as a decimal string, the only accepted timestamp form. */
export function unixTimestamp(nowMs: number = Date.now()): string {
  return String(Math.floor(nowMs / 1000));
}

export const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;
export const TIMESTAMP_PATTERN = /^[0-9]{1,12}$/;
/** Header naming the signature scheme: absent or `1`, or `2` (signedStringV2). */
export const SIGNATURE_VERSION_HEADER = 'signature-version';
