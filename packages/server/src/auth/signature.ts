import { createHash, createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { bodyToSign, SIGNATURE_PATTERN, signedString, signedStringV2 } from '@hostpay/protocol';

/**
 * Request signature check (interface §5): lowercase hex HMAC-SHA256 of `<timestamp>.<body>`
 * (version 1) or `<timestamp>.<METHOD>.<canonical target>.<body>` (version 2), compared in
 * constant time on the decoded bytes. A JSON body verifies against its compact form or, for
 * signers that hashed exactly what they sent, the raw text. Both HMACs are always computed, and an
 * unknown key is checked against a dummy secret, so the time taken does not tell an unknown key
 * from a wrong signature.
 */
export const DUMMY_SECRET: Buffer = randomBytes(32);

/**
 * SIGNATURE_PATTERN (64 lowercase hex digits), tested character by character: the check runs on
 * every signed GET of the fast path, where the regular expression was ~4 % of hostpay's own work.
 */
export function isWellFormedSignature(signature: string): boolean {
  if (signature.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = signature.charCodeAt(i);
    // '0'-'9' or 'a'-'f'
    if (c < 48 || (c > 57 && c < 97) || c > 102) return false;
  }
  return true;
}

/** What a request is signed over, for either version. */
export interface SignedRequest {
  version: 1 | 2;
  timestamp: string;
  method: string;
  /** The request target as received (`req.url`: path and query). */
  target: string;
  rawBody: string;
}

/** The strings the server accepts a signature over: compact body first, then the raw body if it differs. */
export function stringsToVerify(r: SignedRequest): string[] {
  const compact = bodyToSign(r.rawBody);
  const bodies = compact === r.rawBody ? [compact] : [compact, r.rawBody];
  return bodies.map((body) =>
    r.version === 2 ? signedStringV2(r.timestamp, r.method, r.target, '') + body : signedString(r.timestamp, body),
  );
}

// createHmac prepares a key object from raw bytes on every call, several times the cost of an
// HMAC with a KeyObject made once. The key cache keeps one Buffer per key,
// so its KeyObject is made once and lives as long as that Buffer does.
const keyObjects = new WeakMap<Buffer, KeyObject>();

function keyObjectOf(secret: Buffer): KeyObject {
  let k = keyObjects.get(secret);
  if (k === undefined) {
    k = createSecretKey(secret);
    keyObjects.set(secret, k);
  }
  return k;
}

export function signatureMatches(secret: Buffer, r: SignedRequest, signature: string): boolean {
  if (!SIGNATURE_PATTERN.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  const key = keyObjectOf(secret);
  let ok = false;
  for (const text of stringsToVerify(r))
    ok = timingSafeEqual(createHmac('sha256', key).update(text).digest(), given) || ok;
  return ok;
}

/**
 * Sandbox diagnostics for INVALID_SIGNATURE: the SHA-256 and length of the string the server
 * verified (the compact-body form), so an integrator can compare with their own signed string
 * without the server echoing anything secret.
 */
export function signatureDiagnostics(r: SignedRequest): Record<string, unknown> {
  const [text = ''] = stringsToVerify(r);
  return {
    signatureVersion: r.version,
    signedStringSha256: createHash('sha256').update(text, 'utf8').digest('hex'),
    signedStringLength: Buffer.byteLength(text, 'utf8'),
  };
}
