import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { bodyToSign, SIGNATURE_PATTERN } from '@hostpay/protocol';

/**
 * Request signature check (interface §5): lowercase hex HMAC-SHA256 of `<timestamp>.<body>`,
 * compared in constant time on the decoded bytes. A JSON body verifies against its compact form
 * or, for signers that hashed exactly what they sent, the raw text. Both HMACs are always
 * computed, and an unknown key is checked against a dummy secret, so the time taken does not tell
 * an unknown key from a wrong signature.
 */
export const DUMMY_SECRET: Buffer = randomBytes(32);

export function isWellFormedSignature(signature: string): boolean {
  return SIGNATURE_PATTERN.test(signature);
}

export function signatureMatches(secret: Buffer, timestamp: string, rawBody: string, signature: string): boolean {
  if (!SIGNATURE_PATTERN.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  const compact = bodyToSign(rawBody);
  let ok = timingSafeEqual(hmac(secret, timestamp, compact), given);
  if (compact !== rawBody) ok = timingSafeEqual(hmac(secret, timestamp, rawBody), given) || ok;
  return ok;
}

function hmac(secret: Buffer, timestamp: string, body: string): Buffer {
  return createHmac('sha256', secret).update(timestamp + '.' + body).digest();
}
