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

/** The longest logo a merchant may set as a data URL (characters; about 44 KB of image, inside a 62 KiB body). */
export const LOGO_DATA_URL_MAX = 60_000;
/** The longest logo a merchant may set as an https URL. */
export const LOGO_URL_MAX = 2048;
const DATA_IMAGE = /^data:image\/(?:png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/** A small inline PNG, JPEG or WebP image: `img-src data:` already allows it, nothing leaves the page. */
export function isDataImage(url: string | null | undefined): boolean {
  return typeof url === 'string' && url.length <= LOGO_DATA_URL_MAX && DATA_IMAGE.test(url);
}

/** The origin of an https logo URL (the one origin the page's CSP then allows), else null. */
export function logoOrigin(url: string | null | undefined): string | null {
  if (typeof url !== 'string' || url.length > LOGO_URL_MAX) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') return null;
    return parsed.origin;
  } catch {
    return null;
  }
}

/**
 * The payment page's policy when its merchant set an https logo: PAGE_CSP with exactly that
 * logo's origin added to img-src (never `https:` as a whole). The page sends no referrer, so the
 * logo's host learns the payer's address and nothing of the checkout.
 */
export function pageCspWithLogo(url: string | null | undefined): string {
  const origin = logoOrigin(url);
  return origin === null ? PAGE_CSP : PAGE_CSP.replace("img-src 'self' data:", `img-src 'self' data: ${origin}`);
}
