import { addressBlock } from '../auth/failure-limit.js';
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { PAGE_CSP } from './page-headers.js';

/**
 * What the public pages with one form share (refund page, payment link page, invoice page):
 * the payment page's policy with `form-action 'self'`, the cross-site check, the form's nonce
 * and the client address a limit counts by.
 */

/** The payment page's policy, except that the page posts its one form to itself. */
export const PUBLIC_FORM_CSP = PAGE_CSP.replace("form-action 'none'", "form-action 'self'");

/**
 * A form post from another site is refused. Browsers send Sec-Fetch-Site on every request and it
 * decides; the pages' `Referrer-Policy: no-referrer` makes them send `Origin: null` on their own
 * form, so Origin is judged only without it (older browsers) and only when it names a site. A
 * client that sends neither (curl) holds the link itself.
 */
export function crossSite(req: FastifyRequest, publicBaseUrl: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return false;
  const own = new Set([`${req.protocol}://${req.host}`]);
  try {
    own.add(new URL(publicBaseUrl).origin);
  } catch {
    // No usable public URL: the request's own origin is the only one.
  }
  return !own.has(origin);
}

/** How long a form's nonce is accepted after the page was served. */
export const FORM_NONCE_TTL_MS = 10 * 60_000;
const NONCE_RE = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})$/;

/**
 * A fresh nonce for a form: the time it was made and 128 random bits. It is the submit's
 * idempotency key, not a credential (whoever can post the form can load the page for a new one),
 * so it needs no signature: its time only bounds how long a retry finds the first submit's result.
 */
export function formNonce(nowMs: number): string {
  return `${nowMs.toString(36)}.${randomBytes(16).toString('base64url')}`;
}

/** Whether a submitted nonce is well formed and at most 10 minutes old (a minute of clock skew ahead). */
export function formNonceValid(nonce: string, nowMs: number): boolean {
  const m = NONCE_RE.exec(nonce);
  if (m === null) return false;
  const at = Number.parseInt(m[1]!, 36);
  return at <= nowMs + 60_000 && nowMs - at <= FORM_NONCE_TTL_MS;
}

/**
 * The creation limits of the public forms that make checkouts (`POST /l/{slug}`, `POST /i/{token}`;
 * spec/commerce.md, "Shared decisions"), as [bucket, limit, window ms]: one client address (/64) and
 * one merchant have one budget across links and invoices, each link or invoice its own.
 */
export function creationBuckets(
  config: Pick<
    Config,
    'linkCheckoutsPerAddressPerMinute' | 'linkCheckoutsPerLinkPerMinute' | 'linkCheckoutsPerMerchantPerHour'
  >,
  ip: string,
  merchantId: string,
  origin: string,
): [string, number, number][] {
  return [
    [`public:create:client:${addressBlock(ip)}`, config.linkCheckoutsPerAddressPerMinute, 60_000],
    [`public:create:origin:${origin}`, config.linkCheckoutsPerLinkPerMinute, 60_000],
    [`public:create:merchant:${merchantId}`, config.linkCheckoutsPerMerchantPerHour, 3_600_000],
  ];
}

/** How long a public form's used nonce is kept: a day, far past its 10 minutes of validity. */
export const USED_NONCE_RETENTION_MS = 24 * 3_600_000;

/**
 * A prune of a feature's used-nonce rows, run at most once an hour per process from its own
 * writes (each table keeps its one writer): `run` deletes the rows created before the cut-off.
 */
export function usedNoncePrune(run: (before: string) => Promise<unknown>, now: () => number): () => Promise<void> {
  let next = 0;
  return async () => {
    const t = now();
    if (t < next) return;
    next = t + 3_600_000;
    await run(new Date(t - USED_NONCE_RETENTION_MS).toISOString());
  };
}
