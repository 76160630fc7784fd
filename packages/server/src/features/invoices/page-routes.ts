import { addressBlock } from '../../auth/failure-limit.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pageCspWithLogo, securityHeaders } from '../../http/page-headers.js';
import { creationBuckets, crossSite, formNonce, formNonceValid } from '../../http/public-form.js';
import { HostpayError } from '../../errors.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import { type PageSpeech, payerSpeech } from '../../http/payer-language.js';
import { invoiceDocumentPage } from './page.js';
import { messagePage } from '../pay/templates/not-found.js';
import { renderInvoicePdf } from './pdf.js';
import type { InvoiceDocument } from './public.js';
import type { InvoiceService } from './service.js';
import type { InvoiceRow } from './view.js';

/**
 * Loads of the page and PDF per client address a minute. Creations (POST) share the payment
 * links' limits (http/public-form.ts creationBuckets): operator settings, one budget per address
 * and per merchant across links and invoices.
 */
const PAGE_LOADS = { limit: 120, windowMs: 60_000 } as const;

const HTML_UTF8 = 'text/html; charset=utf-8';
const FORM = 'application/x-www-form-urlencoded';

export interface InvoicePageContext extends RouteContext {
  invoices: InvoiceService;
}

/** The nonce as a form posts it, if well made and under 10 minutes old (http/public-form.ts). */
const freshNonce = (text: unknown, now: number): string | null =>
  typeof text === 'string' && formNonceValid(text, now) ? text : null;

/**
 * GET /i/{token} (the invoice as a document), POST /i/{token} (Pay: the invoice's live checkout,
 * or a new one for amountDue; 303 to /pay/{id}) and GET /i/{token}/pdf. Public pages like the
 * refund page: no JavaScript, the payment page's CSP with `form-action 'self'`, cross-site posts
 * refused, creations rate limited. Left out of OpenAPI: pages, not API.
 */
export async function invoicePageRoutes(app: TypedApp, ctx: InvoicePageContext): Promise<void> {
  const pub = ctx.invoices.public;
  const sandbox = ctx.config.sandbox;
  const publicBaseUrl = () => ctx.config.publicUrl ?? '';
  const now = () => ctx.now();

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) => {
    done(null, { nonce: new URLSearchParams(body as string).get('nonce') ?? '' });
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) securityHeaders(reply, cspFor(null));
    return payload;
  });

  const message = (reply: FastifyReply, status: number, speech: PageSpeech, title: string, text: string) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .type(HTML_UTF8)
      .send(messagePage({ sandbox, title, message: text, speech }).text);
  const notFound = (reply: FastifyReply, s: PageSpeech) =>
    message(reply, 404, s, s.t('invoice.notFoundTitle'), s.t('invoice.notFoundText'));
  const tooMany = (reply: FastifyReply, s: PageSpeech, seconds: number) =>
    message(
      reply.header('retry-after', String(seconds)),
      429,
      s,
      s.t('invoice.tooManyTitle'),
      s.t('invoice.tooManyText', { seconds }),
    );
  const page = (reply: FastifyReply, status: number, doc: InvoiceDocument, token: string, speech: PageSpeech) => {
    securityHeaders(reply, cspFor(doc.seller.logoUrl));
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .type(HTML_UTF8)
      .send(invoiceDocumentPage({ doc, token, nonce: formNonce(now()), speech, now: now() }).text);
  };

  async function pageLimited(req: FastifyRequest): Promise<number | null> {
    const l = PAGE_LOADS;
    const rate = await ctx.limiter.hit(`invoice:page:${addressBlock(req.ip)}`, l.limit, l.windowMs);
    return rate.allowed ? null : rate.resetSeconds;
  }

  /** The three creation limits, in order; the first over its limit answers how long to wait. */
  const creationLimit = (req: FastifyRequest) => async (row: InvoiceRow) => {
    for (const [key, limit, windowMs] of creationBuckets(ctx.config, req.ip, row.merchant_id, row.id)) {
      const rate = await ctx.limiter.hit(key, limit, windowMs);
      if (!rate.allowed) return rate.resetSeconds;
    }
    return null;
  };

  app.get('/i/:token', { schema: { hide: true } }, async (req, reply) => {
    const s = payerSpeech(req, reply);
    const wait = await pageLimited(req);
    if (wait !== null) return tooMany(reply, s, wait);
    const doc = await pub.page((req.params as { token: string }).token);
    if (doc === null) return notFound(reply, s);
    return page(reply, 200, doc, (req.params as { token: string }).token, inMerchantDefault(req, reply, s, doc));
  });

  app.get('/i/:token/pdf', { schema: { hide: true } }, async (req, reply) => {
    const s = payerSpeech(req, reply);
    const wait = await pageLimited(req);
    if (wait !== null) return tooMany(reply, s, wait);
    const doc = await pub.page((req.params as { token: string }).token);
    if (doc === null) return notFound(reply, s);
    const sp = inMerchantDefault(req, reply, s, doc);
    return reply
      .code(200)
      .type('application/pdf')
      .header('cache-control', 'no-store')
      .header('content-disposition', `inline; filename="${doc.row.number}.pdf"`)
      .header('content-language', sp.lang)
      .send(await renderInvoicePdf(doc, sp));
  });

  app.post('/i/:token', { schema: { hide: true } }, async (req, reply) => {
    const { token } = req.params as { token: string };
    const s = payerSpeech(req, reply);
    if (crossSite(req, publicBaseUrl()))
      return message(reply, 403, s, s.t('invoice.notStartedTitle'), s.t('invoice.crossSiteText'));
    const nonce = freshNonce((req.body as { nonce?: unknown } | undefined)?.nonce, now());
    if (nonce === null) {
      const doc = await pub.page(token);
      if (doc === null) return notFound(reply, s);
      // An old or missing nonce: the page again, with a fresh one.
      return page(reply, 400, doc, token, inMerchantDefault(req, reply, s, doc));
    }
    const result = await pub.pay(token, nonce, creationLimit(req)).catch((err: unknown) => {
      if (err instanceof HostpayError && err.status >= 400 && err.status < 500) return err;
      throw err;
    });
    if (result instanceof HostpayError) {
      // As on a link's page: the merchant's side cannot take it now (no payable wallet or rate,
      // the invoice changed meanwhile); a page that says so, not the API's JSON envelope.
      req.log.warn({ code: result.code, message: result.message }, 'invoice checkout refused');
      return message(
        reply,
        result.code === 'INVOICE_STATE_CONFLICT' ? 409 : result.status === 429 ? 429 : 503,
        s,
        s.t('invoice.notStartedTitle'),
        s.t(result.code === 'INVOICE_STATE_CONFLICT' ? 'invoice.changedText' : 'invoice.unavailableText'),
      );
    }
    if (result.kind === 'not_found') return notFound(reply, s);
    if (result.kind === 'limited') return tooMany(reply, s, result.resetSeconds);
    if (result.kind === 'closed') return page(reply, 409, result.doc, token, s);
    return reply.code(303).header('cache-control', 'no-store').header('location', `/pay/${result.checkoutId}`).send();
  });
}

/** The payment page's policy with its one form posting to itself, and the merchant's logo origin. */
/** The payer's language once the invoice says whose it is: its merchant's default comes before English. */
function inMerchantDefault(req: FastifyRequest, reply: FastifyReply, s: PageSpeech, doc: InvoiceDocument): PageSpeech {
  return doc.seller.language == null ? s : payerSpeech(req, reply, doc.seller.language);
}

export const cspFor = (logoUrl: string | null) =>
  pageCspWithLogo(logoUrl).replace("form-action 'none'", "form-action 'self'");
