import type { FastifyReply, FastifyRequest } from 'fastify';
import { HostpayError } from '../../errors.js';
import { securityHeaders } from '../../http/page-headers.js';
import { crossSite, PUBLIC_FORM_CSP } from '../../http/public-form.js';
import { type PageSpeech, payerSpeech } from '../../http/payer-language.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import { matchLanguage } from '../../i18n/languages.js';
import { refundDocument, type RefundPageInput } from './page.js';
import { messagePage } from '../pay/templates/not-found.js';
import type { RefundPage, RefundService } from './service.js';
import { brandOf, type MerchantLook, type MerchantLookup } from '../self-service/look.js';

/** The payment page's policy with `form-action 'self'` (http/public-form.ts). */
export const REFUND_PAGE_CSP = PUBLIC_FORM_CSP;

/** Requests a minute per client address: a payer loads the page and submits a few times at most. */
export const REFUND_PAGE_LIMITS = { page: 60, submit: 20 } as const;

const HTML_UTF8 = 'text/html; charset=utf-8';
const FORM = 'application/x-www-form-urlencoded';

export interface RefundPageContext extends RouteContext {
  refunds: RefundService;
  merchantLook: MerchantLookup;
}

/** The HTTP status of a page state: the form 200, an unknown link 404, a used or expired one 410. */
const STATUS: Record<RefundPage['kind'], number> = {
  form: 200,
  not_found: 404,
  used: 410,
  expired: 410,
  nothing_left: 409,
};

/**
 * GET and POST /pay/{id}/refund/{token} (spec/payouts.md, "Refunds"): the page where a payer gives
 * the address a refund goes to. Left out of OpenAPI like the payment page: a page, not API.
 */
export async function refundPageRoutes(app: TypedApp, ctx: RefundPageContext): Promise<void> {
  const { refunds } = ctx;
  const sandbox = ctx.config.sandbox;
  const publicBaseUrl = () => ctx.config.publicUrl ?? '';

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 2048 }, (_req, body, done) => {
    const params = new URLSearchParams(body as string);
    done(null, { address: params.get('address') ?? '' });
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    securityHeaders(reply, REFUND_PAGE_CSP);
    return payload;
  });

  /**
   * The payer's language, and the `?lang=` the form posts with when the payer picked one, so the
   * post's answer speaks it even where the cookie that remembers the pick is refused.
   */
  function speaking(req: FastifyRequest, reply: FastifyReply, look?: MerchantLook | null) {
    const speech = payerSpeech(req, reply, look?.language);
    const picked = matchLanguage((req.query as { lang?: unknown } | undefined)?.lang as string | undefined);
    return { speech, formLang: picked === undefined ? undefined : speech.lang, brand: look ? brandOf(look) : null };
  }
  /** The merchant's default language and colours, once the page says whose it is. */
  const lookOf = (page: RefundPage) =>
    page.kind === 'not_found' ? Promise.resolve(null) : ctx.merchantLook(page.merchantId);

  const send = (reply: FastifyReply, status: number, input: RefundPageInput) =>
    reply.code(status).header('cache-control', 'no-store').type(HTML_UTF8).send(refundDocument(input).text);
  const message = (reply: FastifyReply, status: number, speech: PageSpeech, title: string, text: string) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .type(HTML_UTF8)
      .send(messagePage({ sandbox, speech, title, message: text }).text);

  /** The 429 page when over the limit, else false. */
  async function limited(req: FastifyRequest, reply: FastifyReply, kind: keyof typeof REFUND_PAGE_LIMITS) {
    const rate = await ctx.limiter.hit(`refund:${kind}:${req.ip}`, REFUND_PAGE_LIMITS[kind], 60_000);
    if (rate.allowed) return false;
    reply.header('retry-after', String(rate.resetSeconds));
    // Sent here, then `true`: returning the reply itself would hand the caller a thenable that
    // awaits to undefined, and the handler would go on past the limit.
    const { speech } = speaking(req, reply);
    message(
      reply,
      429,
      speech,
      speech.t('refund.tooManyTitle'),
      speech.t('refund.tooManyMessage', { seconds: rate.resetSeconds }),
    );
    return true;
  }

  app.get('/pay/:id/refund/:token', { schema: { hide: true } }, async (req, reply) => {
    if (await limited(req, reply, 'page')) return reply;
    const { id, token } = req.params as { id: string; token: string };
    const page = await refunds.page(id, token);
    return send(reply, STATUS[page.kind], { page, sandbox, token, ...speaking(req, reply, await lookOf(page)) });
  });

  app.post('/pay/:id/refund/:token', { schema: { hide: true } }, async (req, reply) => {
    if (await limited(req, reply, 'submit')) return reply;
    const { id, token } = req.params as { id: string; token: string };
    const before = await refunds.page(id, token);
    const lang = speaking(req, reply, await lookOf(before));
    const { t } = lang.speech;
    if (crossSite(req, publicBaseUrl()))
      return message(reply, 403, lang.speech, t('refund.notRequestedTitle'), t('refund.crossSite'));
    const address = ((req.body as { address?: unknown } | undefined)?.address ?? '') as string;
    if (address.trim() === '') {
      // Nothing was written since `before` was read: it is the page to answer with.
      const page = before;
      if (page.kind !== 'form') return send(reply, STATUS[page.kind], { page, sandbox, token, ...lang });
      return send(reply, 400, { page, sandbox, token, ...lang, address, error: t('refund.addressMissing') });
    }
    const result = await refunds.submit(id, token, address).catch((err: unknown) => {
      // The merchant's side refuses it for now (a deactivated wallet, too little money, a limit):
      // nothing was requested and the link stays usable. The payer sees a page, not the reason.
      if (err instanceof HostpayError && err.status >= 400 && err.status < 500) return err;
      throw err;
    });
    if (result instanceof HostpayError)
      return message(reply, result.status, lang.speech, t('refund.notRequestedTitle'), t('refund.merchantCannotPay'));
    const page = result.page;
    if (result.error !== undefined && page.kind === 'form') {
      // The validator's own sentence is English and written for merchants; the payer is told
      // whether the address is one nobody can spend from, else what to check.
      const reason = (result.error.details as { reason?: unknown } | undefined)?.reason;
      const error =
        reason === 'burn_address'
          ? t('refund.addressBurn')
          : t('refund.addressInvalid', { asset: page.asset, network: page.network });
      return send(reply, 400, { page, sandbox, token, ...lang, address, error });
    }
    if (result.requested !== undefined)
      return send(reply, 201, { page, sandbox, token, ...lang, requested: result.requested });
    // A second use of the link is a conflict, not the page of a used link a GET shows.
    const status = page.kind === 'used' ? 409 : STATUS[page.kind];
    return send(reply, status, { page, sandbox, token, ...lang });
  });
}
