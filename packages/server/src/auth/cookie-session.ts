import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * What the browser sessions share (the operator console's and the merchant dashboard's): an
 * opaque random id sent only as an HttpOnly, SameSite=Strict cookie, stored as its SHA-256 (a copy
 * of the database signs nobody in), and a CSRF token derived from the id by HMAC, so it needs no
 * storage and dies with the session. A cross-site form or fetch can neither read the cookie nor
 * our answers, so it cannot send the token in `x-csrf-token`.
 */
export const sha256hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A new session id: 32 random bytes, base64url (43 characters). */
export const newSessionId = (): string => randomBytes(32).toString('base64url');

/** The CSRF token of a session id; `label` keeps the console's and the dashboard's apart. */
export function csrfTokenFor(label: string, sessionId: string): string {
  return createHmac('sha256', sessionId).update(label).digest('base64url');
}

/** Whether `given` is the session's CSRF token, in constant time. */
export function csrfTokenMatches(label: string, sessionId: string, given: string | undefined): boolean {
  if (given === undefined || given.length > 128) return false;
  const expected = createHash('sha256').update(csrfTokenFor(label, sessionId)).digest();
  return timingSafeEqual(expected, createHash('sha256').update(given).digest());
}

/** The value of cookie `name` in a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(name: string, value: string, secure: boolean, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

/**
 * The session cookie and its hint: `<name>_hint=1`, readable by the page, set beside a signed-in
 * session and cleared with it. It holds nothing secret; it only lets a page that has no session
 * show its sign-in form without first asking for the session and logging a 401 in the console.
 * `signedIn` false (signing out, a half session) clears the hint.
 */
export function sessionCookies(
  name: string,
  value: string,
  secure: boolean,
  maxAgeSeconds: number,
  signedIn = maxAgeSeconds > 0,
): string[] {
  const hint = `${name}_hint=1; Path=/; SameSite=Strict; Max-Age=${signedIn ? maxAgeSeconds : 0}${secure ? '; Secure' : ''}`;
  return [sessionCookie(name, value, secure, maxAgeSeconds), hint];
}

/**
 * A cookie's name: `__Host-` prefixed (Secure, Path=/, no Domain, enforced by browsers) behind
 * https. Behind https only the prefixed one is read: a plain-named one can be planted by a sibling
 * subdomain or over plain http, and reading it would undo what the prefix guarantees.
 */
export const cookieNameFor = (base: string, secure: boolean): string => (secure ? `__Host-${base}` : base);

/** Behind https: directly, through a trusted proxy's X-Forwarded-Proto, or as the public URL says. */
export const behindHttps = (req: { protocol: string }, publicUrl: string): boolean =>
  req.protocol === 'https' || publicUrl.startsWith('https://');

/** Methods that never write: no CSRF token needed. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
