import { createHash, randomBytes } from 'node:crypto';

/** How long a refund link works (spec/payouts.md, "Refunds": valid 7 days, once). */
export const REFUND_LINK_TTL_MS = 7 * 24 * 3600 * 1000;

/** 32 random bytes, base64url: the credential in the link's URL (the checkout id alone opens nothing). */
export const newRefundToken = (): string => randomBytes(32).toString('base64url');

/** What the store keeps of a token: its SHA-256, so a copy of the database opens no refund page. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A token as newRefundToken writes it; anything else is not looked up. */
export const isTokenShaped = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

export const refundLinkPath = (checkoutId: string, token: string) => `/pay/${checkoutId}/refund/${token}`;
