import type { FastifyReply } from 'fastify';

/**
 * The one policy of every page hostpay serves (the payment page, the operator console): a page
 * loads only its own files (and data: images such as QR codes), talks only to its own server and
 * may not be framed: no inline script or style (so no 'unsafe-inline'), no third party, no
 * plugins, no <base> tricks, no form posts.
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

/** Headers of every answer of the page routes (pay: page, status, QR, assets; the console). */
export function securityHeaders(reply: FastifyReply, csp = PAGE_CSP): void {
  reply.header('content-security-policy', csp);
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
}
