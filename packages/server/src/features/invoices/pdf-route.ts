import { INVOICE_PATHS } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { IdParams } from '../../admin/schemas.js';
import { BASE_ERRORS, MerchantQuery, type merchantScope } from '../../http/merchant-scope.js';
import type { TypedApp } from '../../http/route-context.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import type { InvoiceService } from './service.js';

/** `GET /api/v1/cp/invoices/{id}/pdf`: the invoice as a PDF (409 for a draft: it has no number). */
export function invoicePdfRoute(
  app: TypedApp,
  invoices: InvoiceService,
  merchantOf: ReturnType<typeof merchantScope>,
): void {
  app.get(
    INVOICE_PATHS.pdf,
    {
      schema: {
        tags: ['invoice'],
        operationId: 'getInvoicePdf',
        summary: 'The invoice as a PDF (409 for a draft)',
        description:
          'application/pdf, the same document as /i/{token}/pdf: seller details, customer, lines with tax, totals, amount paid and due. Not enveloped.',
        security: SECURITY.merchant,
        params: IdParams('invoice'),
        querystring: Type.Object(MerchantQuery, { additionalProperties: false }),
        response: {
          200: {
            description: 'The PDF document.',
            content: { 'application/pdf': { schema: Type.String({ format: 'binary', description: 'PDF 1.x' }) } },
          },
          ...errorResponses([...BASE_ERRORS, 'INVOICE_STATE_CONFLICT']),
        },
      },
      config: { scope: 'invoices:read' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      const doc = await invoices.pdf(merchantId, req.params.id);
      return reply
        .code(200)
        .type('application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${doc.filename}"`)
        .send(doc.bytes as unknown as string);
    },
  );
}
