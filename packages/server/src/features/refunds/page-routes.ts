import type { FastifyReply, FastifyRequest } from 'fastify';
import { HostpayError } from '../../errors.js';
import { PAGE_CSP, securityHeaders } from '../../http/page-headers.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import { messagePage } from '../pay/templates/not-found.js';
import { refundDocument, type RefundPageInput } from './page.js';
import type { RefundPage, RefundService } from './service.js';

/**
 * The payment page's policy, except that this page posts its one form to itself: `form-action
 * 'self'` instead of 'none'. Still no inline script or style, no third party, no framing.
 */
export const REFUND_PAGE_CSP = PAGE_CSP.replace("form-action 'none'", "form-action 'self'");

/** Requests a minute per client address: a payer loads the page and submits a few times at most. */
export const REFUND_PAGE_LIMITS = { page: 60, submit: 20 } as const;

const HTML_UTF8 = 'text/html; charset=utf-8';
const FORM = 'application/x-www-form-urlencoded';

export interface RefundPageContext extends RouteContext {
  refunds: RefundService;
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
 * A form post from another site is refused: the token in the URL is the credential, and this
 * keeps a page elsewhere from submitting an address with it. Browsers send Sec-Fetch-Site on
 * every request and it decides; the page's `Referrer-Policy: no-referrer` makes them send
 * `Origin: null` on its own form, so Origin is judged only without it (older browsers) and only
 * when it names a site. A client that sends neither (curl) holds the link itself.
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

  const send = (reply: FastifyReply, status: number, input: RefundPageInput) =>
    reply.code(status).header('cache-control', 'no-store').type(HTML_UTF8).send(refundDocument(input).text);

  /** The 429 page when over the limit, else false. */
  async function limited(req: FastifyRequest, reply: FastifyReply, kind: keyof typeof REFUND_PAGE_LIMITS) {
    const rate = await ctx.limiter.hit(`refund:${kind}:${req.ip}`, REFUND_PAGE_LIMITS[kind], 60_000);
    if (rate.allowed) return false;
    reply.header('retry-after', String(rate.resetSeconds));
    return reply
      .code(429)
      .header('cache-control', 'no-store')
      .type(HTML_UTF8)
      .send(
        messagePage({
          sandbox,
          title: 'Too many requests',
          message: `Wait ${rate.resetSeconds} seconds, then reload this page.`,
        }).text,
      );
  }

  app.get('/pay/:id/refund/:token', { schema: { hide: true } }, async (req, reply) => {
    if (await limited(req, reply, 'page')) return reply;
    const { id, token } = req.params as { id: string; token: string };
    const page = await refunds.page(id, token);
    return send(reply, STATUS[page.kind], { page, sandbox, token });
  });

  app.post('/pay/:id/refund/:token', { schema: { hide: true } }, async (req, reply) => {
    if (await limited(req, reply, 'submit')) return reply;
    const { id, token } = req.params as { id: string; token: string };
    if (crossSite(req, publicBaseUrl()))
      return reply
        .code(403)
        .header('cache-control', 'no-store')
        .type(HTML_UTF8)
        .send(
          messagePage({
            sandbox,
            title: 'Refund not requested',
            message: 'This form can only be sent from its own page. Open the refund link you were given and try again.',
          }).text,
        );
    const address = ((req.body as { address?: unknown } | undefined)?.address ?? '') as string;
    if (address.trim() === '') {
      const page = await refunds.page(id, token);
      if (page.kind !== 'form') return send(reply, STATUS[page.kind], { page, sandbox, token });
      return send(reply, 400, { page, sandbox, token, address, error: 'Enter the address the refund should go to.' });
    }
    const result = await refunds.submit(id, token, address).catch((err: unknown) => {
      // The merchant's side refuses it for now (a deactivated wallet, too little money, a limit):
      // nothing was requested and the link stays usable. The payer sees a page, not the reason.
      if (err instanceof HostpayError && err.status >= 400 && err.status < 500) return err;
      throw err;
    });
    if (result instanceof HostpayError)
      return reply
        .code(result.status)
        .header('cache-control', 'no-store')
        .type(HTML_UTF8)
        .send(
          messagePage({
            sandbox,
            title: 'Refund not requested',
            message:
              'The merchant cannot pay this refund right now. Your link still works: try again later, or contact the merchant.',
          }).text,
        );
    if (result.error !== undefined)
      return send(reply, 400, { page: result.page, sandbox, token, address, error: addressError(result.error) });
    if (result.requested !== undefined)
      return send(reply, 201, { page: result.page, sandbox, token, requested: result.requested });
    // A second use of the link is a conflict, not the page of a used link a GET shows.
    const status = result.page.kind === 'used' ? 409 : STATUS[result.page.kind];
    return send(reply, status, { page: result.page, sandbox, token });
  });
}

/** The validator's sentence, for a payer: what was wrong with the address. */
function addressError(err: HostpayError): string {
  return `This is not an address the refund can be sent to: ${err.message}`;
}
