import { logoHostRefusal } from '../self-service/settings.js';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HostpayError } from '../../errors.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { successBody } from '../../http/success-body.js';
import { JSON_UTF8 } from '../../http/envelope.js';
import type { CheckoutRouteContext } from '../checkouts/merchant-routes.js';
import { assetNamed } from './assets.js';
import { PAGE_CSP, pageCspWithLogo, securityHeaders } from '../../http/page-headers.js';
import { PAYABLE, type PaySource } from './pay-view.js';
import { qrSvg } from './qr.js';
import { PayParams, PayStatusEnvelope, PayStatusQuery } from './schemas.js';
import { statusResult } from './status.js';
import { paymentPage } from './templates/page.js';
import { notFoundPage, tooManyPage } from './templates/not-found.js';
import { payerSpeech, requestLanguage } from '../../http/payer-language.js';

/** What the pay routes need beyond the checkout routes' context. */
export interface PayRouteContext extends CheckoutRouteContext {
  pay: PaySource;
}

/**
 * Requests a minute per client address. The status route is polled about once a second by an
 * open page; the page and its QR codes are loaded once per visit and per network chosen. Several
 * payers behind one NAT still fit; a scraper walking ids does not get far.
 */
export const PAY_LIMITS = { status: 240, page: 120 } as const;
const HTML_UTF8 = 'text/html; charset=utf-8';
const SVG = 'image/svg+xml';
// Untyped reply: the body is finished JSON text (exact decimals), not the schema's object.
const json = (reply: FastifyReply, body: string) =>
  reply.header('cache-control', 'no-store').type(JSON_UTF8).send(body);

/** The one `?option=` value a page request may carry; anything else is ignored, never an error page. */
function optionOf(req: FastifyRequest): string | undefined {
  const value = (req.query as Record<string, unknown> | undefined)?.option;
  return typeof value === 'string' && value.length <= 40 ? value : undefined;
}

/**
 * The hosted payment page (spec/checkout.md, "Hosted payment page"): public, the checkout id is
 * the capability. HTML routes are left out of the OpenAPI document (they are pages, not API);
 * the JSON status route is in it. Every answer of this plugin, errors included, carries the
 * page's security headers (headers.ts).
 */
export async function payRoutes(app: TypedApp, ctx: PayRouteContext): Promise<void> {
  const pay = ctx.pay;
  const { sandbox } = ctx.config;
  const nowIso = () => new Date(ctx.now()).toISOString();

  app.addHook('onSend', async (_req, reply, payload) => {
    // The page itself may widen img-src by its merchant's https logo (page-headers.ts).
    const csp = reply.getHeader('content-security-policy');
    securityHeaders(reply, typeof csp === 'string' ? csp : PAGE_CSP);
    return payload;
  });

  /** Counts the request; the answer it must get when over the limit, else null. */
  async function overLimit(req: FastifyRequest, kind: keyof typeof PAY_LIMITS): Promise<number | null> {
    const rate = await ctx.limiter.hit(`pay:${kind}:${req.ip}`, PAY_LIMITS[kind], 60_000);
    return rate.allowed ? null : rate.resetSeconds;
  }

  const page = (reply: FastifyReply, status: number, body: { text: string }) =>
    reply.code(status).header('cache-control', 'no-store').type(HTML_UTF8).send(body.text);

  app.get(
    '/pay/assets/:file',
    { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 64 }) }) } },
    async (req, reply) => {
      const asset = assetNamed(req.params.file);
      if (asset === undefined)
        throw new HostpayError(
          'NOT_FOUND',
          'no such file: page files are named by their content hash; reload the page',
        );
      return reply.header('cache-control', 'public, max-age=31536000, immutable').type(asset.type).send(asset.body);
    },
  );

  app.get('/pay/:id', { schema: { hide: true } }, async (req, reply) => {
    // The payer's language first: a `?lang=` pick is remembered even on a 429 or a 404 page.
    const speech = payerSpeech(req, reply);
    const retry = await overLimit(req, 'page');
    if (retry !== null) {
      reply.header('retry-after', String(retry));
      return page(reply, 429, tooManyPage(sandbox, retry, speech));
    }
    const { id } = req.params as { id: string };
    const loaded = await pay.load(id);
    if (loaded === undefined) return page(reply, 404, notFoundPage(sandbox, speech));
    // A logo stored before its host was checked is not shown where the check refuses it.
    const view = logoShown(loaded.logoUrl, sandbox) ? loaded : { ...loaded, logoUrl: null };
    reply.header('content-security-policy', pageCspWithLogo(view.logoUrl));
    return page(
      reply,
      200,
      paymentPage({
        view,
        option: optionOf(req),
        sandbox,
        now: nowIso(),
        // Now that the merchant is known, its default language comes before English.
        speech: loaded.language == null ? speech : payerSpeech(req, reply, loaded.language),
      }),
    );
  });

  app.get('/pay/:id/qr.svg', { schema: { hide: true } }, async (req, reply) => {
    const retry = await overLimit(req, 'page');
    if (retry !== null)
      throw new HostpayError(
        'RATE_LIMITED',
        'too many requests from your address: retry after the Retry-After seconds',
        undefined,
        { 'retry-after': String(retry) },
      );
    const { id } = req.params as { id: string };
    const view = await pay.load(id);
    const key = optionOf(req);
    const option = view?.options.find((o) => o.key === key);
    if (view === undefined || option === undefined)
      throw new HostpayError('NOT_FOUND', 'no such checkout or payment option');
    // The page shows no payment details once the checkout stops taking payments: neither does its QR.
    if (!PAYABLE.has(view.status))
      throw new HostpayError('NOT_FOUND', 'this checkout no longer takes payments: it has no QR code to show');
    return reply
      .header('cache-control', 'no-store')
      .type(SVG)
      .send(await qrSvg(option.paymentUri));
  });

  app.get(
    '/pay/:id/status',
    {
      schema: {
        tags: ['public'],
        operationId: 'getPaymentPageStatus',
        summary: 'What the hosted payment page shows, for its live updates',
        description:
          "Public (the checkout id is the capability) and rate-limited per client address. Reveals only what the payment page shows: merchant name, description, amount (amountText), state with what to do next in the payer's language (`?lang=`, as the page passes it, else the hostpay_lang cookie, else Accept-Language, else English), per payment option (only while the checkout is open or underpaid, as on the page) the address, amounts, confirmations and payment URIs, and the payments received with their transaction hashes. No metadata, order id, fee or rate. Unknown and malformed ids are 404.",
        security: SECURITY.public,
        params: PayParams,
        querystring: PayStatusQuery,
        response: {
          200: PayStatusEnvelope,
          ...errorResponses(['NOT_FOUND', 'RATE_LIMITED', 'INTERNAL', 'UNAVAILABLE']),
        },
      },
    },
    async (req, reply) => {
      const retry = await overLimit(req, 'status');
      if (retry !== null)
        throw new HostpayError(
          'RATE_LIMITED',
          `at most ${PAY_LIMITS.status} status requests a minute from one address: retry after the Retry-After seconds`,
          { limit: PAY_LIMITS.status, retryAfterSeconds: retry },
          { 'retry-after': String(retry) },
        );
      const view = await pay.load(req.params.id);
      if (view === undefined)
        throw new HostpayError('NOT_FOUND', 'no such checkout: check the payment link (the id is not echoed back)');
      return json(reply, successBody(statusResult(view, nowIso(), requestLanguage(req, view.language))));
    },
  );
}

/** Whether the page may show this logo: a data: image, or an https URL whose host payers can reach (settings.ts). */
export function logoShown(url: string | null, sandbox: boolean): boolean {
  if (url === null || url.startsWith('data:')) return true;
  try {
    return logoHostRefusal(new URL(url), sandbox) === null;
  } catch {
    return false;
  }
}
