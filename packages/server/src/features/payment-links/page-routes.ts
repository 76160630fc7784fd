import { addressBlock } from '../../auth/failure-limit.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HostpayError } from '../../errors.js';
import { pageCspWithLogo, securityHeaders } from '../../http/page-headers.js';
import {
  creationBuckets,
  crossSite,
  formNonce,
  FORM_NONCE_TTL_MS,
  formNonceValid,
  PUBLIC_FORM_CSP,
} from '../../http/public-form.js';
import { type PageSpeech, payerSpeech } from '../../http/payer-language.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import { matchLanguage } from '../../i18n/languages.js';
import type { Speech } from '../../i18n/messages.js';
import type { SafeHtml } from '../pay/html.js';
import { linkDocument, money, unavailableDocument } from './page.js';
import { messagePage } from '../pay/templates/not-found.js';
import type { AmountProblem } from './pay.js';
import type { PaymentLinkService, PublicLink } from './service.js';

const HTML_UTF8 = 'text/html; charset=utf-8';
const FORM = 'application/x-www-form-urlencoded';
/** Page loads a minute per client address (the creates have their own limits, operator settings). */
export const LINK_PAGE_VIEWS_PER_MINUTE = 120;

export interface LinkPageContext extends RouteContext {
  paymentLinks: PaymentLinkService;
}

interface LinkForm {
  nonce: string;
  amount: string;
  email: string;
}

/**
 * GET and POST /l/{slug} (spec/commerce.md, "Payment links"): the link's page and its one form.
 * A visit creates nothing; a submit makes a checkout of the link (or finds the one its nonce
 * made) and redirects (303) to its payment page. Left out of OpenAPI: a page, not API.
 */
export async function paymentLinkPageRoutes(app: TypedApp, ctx: LinkPageContext): Promise<void> {
  const { paymentLinks, config } = ctx;
  const sandbox = config.sandbox;
  const publicBaseUrl = () => ctx.config.publicUrl ?? '';

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 2048 }, (_req, body, done) => {
    const params = new URLSearchParams(body as string);
    done(null, {
      nonce: params.get('nonce') ?? '',
      amount: params.get('amount') ?? '',
      email: params.get('email') ?? '',
    });
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (reply.getHeader('content-security-policy') === undefined) securityHeaders(reply, PUBLIC_FORM_CSP);
    return payload;
  });

  const send = (reply: FastifyReply, status: number, doc: SafeHtml, logoUrl?: string | null) => {
    // The merchant's https logo is the one other origin the page may load (as the payment page).
    securityHeaders(reply, pageCspWithLogo(logoUrl ?? null).replace("form-action 'none'", "form-action 'self'"));
    return reply.code(status).header('cache-control', 'no-store').type(HTML_UTF8).send(doc.text);
  };
  const message = (reply: FastifyReply, status: number, speech: PageSpeech, title: string, text: string) =>
    send(reply, status, messagePage({ sandbox, speech, title, message: text }));

  /** Seconds to wait when one of `buckets` is over its limit, else null. Counts each bucket. */
  async function overLimit(buckets: [string, number, number][]): Promise<number | null> {
    for (const [bucket, limit, windowMs] of buckets) {
      const rate = await ctx.limiter.hit(bucket, limit, windowMs);
      if (!rate.allowed) return rate.resetSeconds;
    }
    return null;
  }
  const tooMany = (reply: FastifyReply, s: PageSpeech, wait: number) => {
    reply.header('retry-after', String(wait));
    return message(reply, 429, s, s.t('link.tooManyTitle'), s.t('link.tooManyMessage', { seconds: wait }));
  };

  const found = async (reply: FastifyReply, s: PageSpeech, slug: string): Promise<PublicLink | undefined> => {
    const view = /^[A-Za-z0-9_-]{16,64}$/.test(slug) ? await paymentLinks.publicLink(slug) : undefined;
    if (view === undefined) await message(reply, 404, s, s.t('link.notFoundTitle'), s.t('link.notFoundMessage'));
    return view;
  };

  app.get('/l/:slug', { schema: { hide: true } }, async (req, reply) => {
    const early = speaking(req, reply);
    const wait = await overLimit([[`plink:view:${addressBlock(req.ip)}`, LINK_PAGE_VIEWS_PER_MINUTE, 60_000]]);
    if (wait !== null) return tooMany(reply, early.speech, wait);
    const view = await found(reply, early.speech, (req.params as { slug: string }).slug);
    if (view === undefined) return reply;
    // Now that the merchant is known, its default language comes before English.
    const { speech, formLang } = view.language == null ? early : speaking(req, reply, view.language);
    if (view.reason !== null)
      return send(reply, 410, unavailableDocument(view, view.reason, sandbox, speech), view.logoUrl);
    return send(
      reply,
      200,
      linkDocument({ view, sandbox, speech, formLang, nonce: formNonce(ctx.now()) }),
      view.logoUrl,
    );
  });

  app.post('/l/:slug', { schema: { hide: true } }, async (req, reply) => {
    const early = speaking(req, reply);
    if (crossSite(req, publicBaseUrl()))
      return message(
        reply,
        403,
        early.speech,
        early.speech.t('link.notStartedTitle'),
        early.speech.t('link.crossSite'),
      );
    const view = await found(reply, early.speech, (req.params as { slug: string }).slug);
    if (view === undefined) return reply;
    const { speech, formLang } = view.language == null ? early : speaking(req, reply, view.language);
    const { t } = speech;
    const form = (req.body ?? { nonce: '', amount: '', email: '' }) as LinkForm;
    const again = (status: number, error: { field: 'amount' | 'email' | 'form'; message: string }) =>
      send(
        reply,
        status,
        linkDocument({
          view,
          sandbox,
          speech,
          formLang,
          nonce: formNonce(ctx.now()),
          amount: form.amount,
          email: form.email,
          error,
        }),
        view.logoUrl,
      );
    const gone = (reason: NonNullable<PublicLink['reason']>) =>
      send(reply, 410, unavailableDocument(view, reason, sandbox, speech), view.logoUrl);
    if (!formNonceValid(form.nonce, ctx.now())) {
      // A link that takes no payment says why (410) rather than asking for a fresh form.
      if (view.reason !== null) return gone(view.reason);
      return again(400, { field: 'form', message: t('link.formTooOld', { minutes: FORM_NONCE_TTL_MS / 60_000 }) });
    }
    const { link } = view;
    // Counted only for a create that would happen (payLink asks after the replay and the checks).
    const admit = () => overLimit(creationBuckets(config, req.ip, link.merchant_id, link.id));
    const result = await paymentLinks
      .pay({ link, decimals: view.decimals, nonce: form.nonce, amount: form.amount, email: form.email, admit })
      .catch((err: unknown) => {
        if (err instanceof HostpayError && err.status >= 400 && err.status < 500) return err;
        throw err;
      });
    if (!(result instanceof HostpayError))
      return reply.code(303).header('cache-control', 'no-store').redirect(`/pay/${result.checkoutId}`, 303);
    if (result.code === 'RATE_LIMITED')
      return tooMany(reply, speech, (result.details as { resetSeconds: number }).resetSeconds);
    if (result.code === 'PAYMENT_LINK_UNAVAILABLE')
      return gone((result.details as { reason?: 'inactive' | 'expired' | 'used_up' } | undefined)?.reason ?? 'used_up');
    const field = (result.details as { field?: string } | undefined)?.field;
    if (field === 'amount' || field === 'email')
      return again(result.code === 'CUSTOMER_EMAIL_MISSING' ? 400 : result.status, {
        field,
        message: fieldError(speech, view, result),
      });
    // The merchant's side cannot take it now (no payable wallet, no rate): the link stays usable.
    req.log.warn({ code: result.code, message: result.message }, 'payment link checkout refused');
    return message(
      reply,
      result.status === 429 ? 429 : 503,
      speech,
      t('link.notStartedTitle'),
      t('link.merchantCannotTake'),
    );
  });
}

/**
 * The payer's language, and the `?lang=` the form posts with when the payer picked one, so the
 * post's answer speaks it even where the cookie that remembers the pick is refused.
 */
function speaking(req: FastifyRequest, reply: FastifyReply, merchantDefault?: string | null) {
  const speech = payerSpeech(req, reply, merchantDefault);
  const picked = matchLanguage((req.query as { lang?: unknown } | undefined)?.lang as string | undefined);
  return { speech, formLang: picked === undefined ? undefined : speech.lang };
}

/** A refused amount or email as the page says it, in the payer's language (the error's own text is English). */
function fieldError(s: Speech, view: PublicLink, err: HostpayError): string {
  if (err.code === 'CUSTOMER_EMAIL_MISSING') return s.t('link.emailRequired');
  if (err.code === 'INVALID_EMAIL') return s.t('link.emailInvalid');
  const { link } = view;
  switch ((err.details as { problem?: AmountProblem } | undefined)?.problem) {
    case 'missing':
      return s.t('link.amountMissing', { currency: link.currency });
    case 'too_precise':
      return s.t('link.amountTooPrecise', { count: view.decimals });
    case 'below':
      return s.t('link.amountTooSmall', { min: money(s, view, link.min_amount ?? '0') });
    case 'above':
      return s.t('link.amountTooLarge', { max: money(s, view, link.max_amount ?? '0') });
    default:
      return s.t('link.amountNotNumber');
  }
}
