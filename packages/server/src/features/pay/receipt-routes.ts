import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TypedApp } from '../../http/route-context.js';
import { PAGE_CSP, pageCspWithLogo, securityHeaders } from '../../http/page-headers.js';
import { logoShown, type PayRouteContext } from './routes.js';
import type { PaySource } from './pay-view.js';
import { receiptPdf } from './receipt-pdf.js';
import type { ReceiptSource, ReceiptView } from './receipt-view.js';
import { type PageSpeech, payerSpeech } from '../../http/payer-language.js';
import { receiptPage } from './templates/receipt.js';
import { messagePage } from './templates/not-found.js';

/** The receipt routes' context: the pay provision with its receipts. */
export interface ReceiptRouteContext extends PayRouteContext {
  pay: PaySource & ReceiptSource;
}

/** Requests a minute per client address for receipts (pages and PDFs together). */
export const RECEIPT_LIMIT = 60;
const HTML_UTF8 = 'text/html; charset=utf-8';

/**
 * A settled checkout's receipt (spec/commerce.md, "Receipts"): `GET /pay/{id}/receipt` (a page)
 * and `GET /pay/{id}/receipt.pdf`. Public: the checkout id is the capability, as for the payment
 * page. Before settlement (and for unknown ids) both are 404. The pay plugin's headers hook does
 * not reach here (another plugin), so the page's CSP and headers are set by this one's own hook.
 */
export async function receiptRoutes(app: TypedApp, ctx: ReceiptRouteContext): Promise<void> {
  const { sandbox } = ctx.config;
  app.addHook('onSend', async (_req, reply, payload) => {
    const csp = reply.getHeader('content-security-policy');
    securityHeaders(reply, typeof csp === 'string' ? csp : PAGE_CSP);
    return payload;
  });

  const page = (reply: FastifyReply, status: number, text: string) =>
    reply.code(status).header('cache-control', 'no-store').type(HTML_UTF8).send(text);

  /** The receipt, or the answer already sent (429, 404). */
  async function receiptFor(req: FastifyRequest, reply: FastifyReply, speech: PageSpeech) {
    const s = speech;
    const rate = await ctx.limiter.hit(`pay:receipt:${req.ip}`, RECEIPT_LIMIT, 60_000);
    if (!rate.allowed) {
      reply.header('retry-after', String(rate.resetSeconds));
      const message = s.t('receipt.tooManyText', { seconds: rate.resetSeconds });
      page(reply, 429, messagePage({ sandbox, title: s.t('receipt.tooManyTitle'), message, speech }).text);
      return undefined;
    }
    const found = await ctx.pay.receipt((req.params as { id: string }).id);
    // A logo stored before its host was checked is not shown where the check refuses it (as on the page).
    const receipt = found === undefined || logoShown(found.logoUrl, sandbox) ? found : { ...found, logoUrl: null };
    if (receipt === undefined) {
      const message = s.t('receipt.notFoundText');
      page(reply, 404, messagePage({ sandbox, title: s.t('receipt.notFoundTitle'), message, speech }).text);
    }
    return receipt;
  }

  app.get('/pay/:id/receipt', { schema: { hide: true } }, async (req, reply) => {
    const early = payerSpeech(req, reply);
    const receipt = await receiptFor(req, reply, early);
    if (receipt === undefined) return reply;
    const s = inMerchantDefault(req, reply, early, receipt);
    reply.header('content-security-policy', pageCspWithLogo(receipt.logoUrl));
    return page(reply, 200, receiptPage(receipt, sandbox, s).text);
  });

  app.get('/pay/:id/receipt.pdf', { schema: { hide: true } }, async (req, reply) => {
    const early = payerSpeech(req, reply);
    const receipt = await receiptFor(req, reply, early);
    if (receipt === undefined) return reply;
    const s = inMerchantDefault(req, reply, early, receipt);
    const pdf = await receiptPdf(receipt, sandbox, receipt.receiptUrl, s);
    return reply
      .header('content-language', s.lang)
      .header('cache-control', 'no-store')
      .header('content-disposition', `inline; filename="receipt-${receipt.receiptNumber}.pdf"`)
      .type('application/pdf')
      .send(pdf);
  });
}

/** The payer's language once the receipt says whose it is: its merchant's default comes before English. */
function inMerchantDefault(req: FastifyRequest, reply: FastifyReply, s: PageSpeech, r: ReceiptView): PageSpeech {
  return r.language == null ? s : payerSpeech(req, reply, r.language);
}
