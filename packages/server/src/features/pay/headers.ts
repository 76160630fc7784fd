import type { FastifyReply } from 'fastify';

/**
 * The page loads nothing but its own two files and its own QR images, talks only to its own
 * status route, and may not be framed: no inline script or style (so no 'unsafe-inline'), no
 * third party, no plugins, no <base> tricks, no form posts.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every answer of the pay routes (page, status, QR, assets). */
export function securityHeaders(reply: FastifyReply, csp = PAGE_CSP): void {
  reply.header('content-security-policy', csp);
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
}
