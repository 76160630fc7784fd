/** How long a refund link works (spec/payouts.md, "Refunds": valid 7 days, once). */
export const REFUND_LINK_TTL_MS = 7 * 24 * 3600 * 1000;

export const refundLinkPath = (checkoutId: string, token: string) => `/pay/${checkoutId}/refund/${token}`;
