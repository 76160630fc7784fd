import {
  CreateInvoiceBody,
  EMAIL_FIELD_MAX,
  Invoice,
  INVOICE_PATHS,
  INVOICE_STATUS_VALUES,
  UpdateInvoiceBody,
} from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { IdempotencyHeaders, IdParams, PageQuery, pageOf } from '../../admin/schemas.js';
import type { AdminIdempotency } from '../../http/idempotency.js';
import {
  BASE_ERRORS,
  merchantScope,
  MerchantQuery,
  ok,
  okPage,
  send,
  WRITE_ERRORS,
} from '../../http/merchant-scope.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import { successBody, successPageBody } from '../../http/success-body.js';
import { invoicePdfRoute } from './pdf-route.js';
import type { InvoiceService } from './service.js';

export interface InvoiceRouteContext extends RouteContext {
  invoices: InvoiceService;
  idempotency?: AdminIdempotency | undefined;
}

const BODY_LIMIT = 64 * 1024;
const DRAFT_ERRORS = [...WRITE_ERRORS, 'INVALID_AMOUNT', 'INVALID_EMAIL', 'UNSUPPORTED_CURRENCY'] as const;
const STATE_ERRORS = [...WRITE_ERRORS, 'INVOICE_STATE_CONFLICT'] as const;
const one = (description: string) => ok(Invoice, description);
const Query = Type.Object(MerchantQuery, { additionalProperties: false });
const NoBody = Type.Object({}, { additionalProperties: false, description: 'no body, or {}' });

type MerchantOf = ReturnType<typeof merchantScope>;

/**
 * The merchant's invoices (spec/commerce.md, "Invoices"): signed JSON bodies like checkouts,
 * Idempotency-Key on every POST, scoped per merchant. Any move the state table does not name is
 * 409 INVOICE_STATE_CONFLICT.
 */
export async function invoiceMerchantRoutes(app: TypedApp, ctx: InvoiceRouteContext): Promise<void> {
  const { invoices } = ctx;
  const merchantOf = merchantScope(app, ctx, BODY_LIMIT, '{"currency": "EUR", "lineItems": […]}');

  app.post(
    INVOICE_PATHS.invoices,
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['invoice'],
        operationId: 'createInvoice',
        summary: 'Create a draft invoice',
        description:
          "A draft: editable (PATCH) and deletable until finalized; no number and no URL yet. Lines' amounts and per-line tax are rounded half-up to the currency's decimals, then summed.",
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        querystring: Query,
        body: CreateInvoiceBody,
        response: { 201: one('The draft.'), ...errorResponses(DRAFT_ERRORS) },
      },
      config: { scope: 'invoices:write' },
    },
    async (req, reply) =>
      send(
        reply,
        201,
        successBody(await invoices.create(await merchantOf(req, req.query.merchantId), req.body), 'invoice created'),
      ),
  );

  app.get(
    INVOICE_PATHS.invoices,
    {
      schema: {
        tags: ['invoice'],
        operationId: 'listInvoices',
        summary: 'List invoices, newest first',
        description:
          'Filters: status, customerEmail (exact). The envelope carries `nextCursor` (null on the last page).',
        security: SECURITY.merchant,
        querystring: Type.Object(
          {
            ...MerchantQuery,
            ...PageQuery,
            status: Type.Optional(Type.Union(INVOICE_STATUS_VALUES.map((s) => Type.Literal(s)))),
            customerEmail: Type.Optional(Type.String({ maxLength: EMAIL_FIELD_MAX })),
          },
          { additionalProperties: false },
        ),
        response: { 200: okPage(Invoice, 'Invoices, newest first.'), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'invoices:read' },
    },
    async (req, reply) => {
      const { merchantId: asked, limit, cursor, ...filter } = req.query;
      const merchantId = await merchantOf(req, asked);
      const result = await invoices.list(
        merchantId,
        filter,
        pageOf({ ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }) }),
      );
      return send(reply, 200, successPageBody(result.items, result.nextCursor));
    },
  );

  app.get(
    INVOICE_PATHS.invoice,
    {
      schema: {
        tags: ['invoice'],
        operationId: 'getInvoice',
        summary: "One invoice (another merchant's id is 404)",
        description:
          'The invoice with its lines, totals, amountPaid and amountDue, its checkouts and, once finalized, its number and public URL.',
        security: SECURITY.merchant,
        params: IdParams('invoice'),
        querystring: Query,
        response: { 200: one('The invoice.'), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'invoices:read' },
    },
    async (req, reply) =>
      send(reply, 200, successBody(await invoices.get(await merchantOf(req, req.query.merchantId), req.params.id))),
  );

  app.patch(
    INVOICE_PATHS.invoice,
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['invoice'],
        operationId: 'updateInvoice',
        summary: 'Edit a draft (409 once finalized)',
        description: 'Fields left out keep their value; `null` clears; `lineItems` replaces every line.',
        security: SECURITY.merchant,
        params: IdParams('invoice'),
        querystring: Query,
        body: UpdateInvoiceBody,
        response: { 200: one('The draft as changed.'), ...errorResponses([...DRAFT_ERRORS, 'INVOICE_STATE_CONFLICT']) },
      },
      config: { scope: 'invoices:write' },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(
          await invoices.update(await merchantOf(req, req.query.merchantId), req.params.id, req.body),
          'invoice updated',
        ),
      ),
  );

  app.delete(
    INVOICE_PATHS.invoice,
    {
      schema: {
        tags: ['invoice'],
        operationId: 'deleteInvoice',
        summary: 'Delete a draft (409 once finalized: void it instead)',
        description: 'Answers the draft as it was. A finalized invoice keeps its number: void it instead.',
        security: SECURITY.merchant,
        params: IdParams('invoice'),
        querystring: Query,
        response: { 200: one('The draft as it was.'), ...errorResponses([...BASE_ERRORS, 'INVOICE_STATE_CONFLICT']) },
      },
      config: { scope: 'invoices:write' },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(
          await invoices.remove(await merchantOf(req, req.query.merchantId), req.params.id),
          'invoice deleted',
        ),
      ),
  );

  invoiceActionRoutes(app, invoices, merchantOf);
  invoicePdfRoute(app, invoices, merchantOf);
}

const ACTIONS = [
  {
    path: INVOICE_PATHS.finalize,
    operationId: 'finalizeInvoice',
    summary: 'Finalize a draft: its number and public URL',
    description:
      "draft → open. Needs at least one line, a total above 0 and dueAt null or in the future (else 409 INVOICE_STATE_CONFLICT). The number is the next under the merchant's invoicePrefix (<invoicePrefix>-000001; each prefix counts from 1), gap-free, assigned in this transaction. Event invoice.finalized.",
    run: 'finalize',
    message: 'invoice finalized',
  },
  {
    path: INVOICE_PATHS.void,
    operationId: 'voidInvoice',
    summary: 'Void an open invoice',
    description:
      'open → void, when none of its checkouts is underpaid, processing or in review; its open checkouts are canceled. It keeps its number; its page says it is void. Event invoice.voided.',
    run: 'void',
    message: 'invoice voided',
  },
  {
    path: INVOICE_PATHS.markUncollectible,
    operationId: 'markInvoiceUncollectible',
    summary: 'Mark an open or partially paid invoice uncollectible',
    description: 'It can still be paid on its page; paid in full it becomes paid. Event invoice.marked_uncollectible.',
    run: 'markUncollectible',
    message: 'invoice marked uncollectible',
  },
  {
    path: INVOICE_PATHS.send,
    operationId: 'sendInvoice',
    summary: 'Email the invoice to its customer',
    description:
      '422 CUSTOMER_EMAIL_MISSING without customer.email; 409 for a draft or void invoice. Without a mail transport the mail is kept and the call succeeds. `sentAt` records the last send.',
    run: 'send',
    message: 'invoice sent',
  },
] as const;

function invoiceActionRoutes(app: TypedApp, invoices: InvoiceService, merchantOf: MerchantOf): void {
  for (const a of ACTIONS)
    app.post(
      a.path,
      {
        bodyLimit: 1024,
        schema: {
          tags: ['invoice'],
          operationId: a.operationId,
          summary: a.summary,
          description: a.description,
          security: SECURITY.merchant,
          headers: IdempotencyHeaders,
          params: IdParams('invoice'),
          querystring: Query,
          body: NoBody,
          response: {
            200: one('The invoice after the move.'),
            ...errorResponses(a.run === 'send' ? [...STATE_ERRORS, 'CUSTOMER_EMAIL_MISSING'] : STATE_ERRORS),
          },
        },
        config: { scope: 'invoices:write' },
      },
      async (req, reply) =>
        send(
          reply,
          200,
          successBody(await invoices[a.run](await merchantOf(req, req.query.merchantId), req.params.id), a.message),
        ),
    );
}
