import { createHash, randomBytes } from 'node:crypto';

/**
 * A capability in a URL (a refund link, an invoice's public page): 32 random bytes, base64url.
 * Whoever holds it may open that one page; the object's id alone opens nothing.
 */
export const newCapabilityToken = (): string => randomBytes(32).toString('base64url');

/** What the store keeps and looks a token up by: its SHA-256, so a copy of the database opens no page. */
export const capabilityHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A token as newCapabilityToken writes it; anything else is not looked up. */
export const isCapabilityShaped = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);
