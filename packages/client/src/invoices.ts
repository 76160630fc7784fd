import { idPath, limitText, optionalDecimal, page, pages, timeText, write } from './calls.js';
import type {
  CreateInvoiceParams,
  Invoice,
  InvoiceDraftParams,
  InvoicePage,
  ListInvoicesParams,
  UpdateInvoiceParams,
} from './commerce-types.js';
import { decimalText, type AmountMode } from './decimals.js';
import { HostpayError } from './errors.js';
import type { RequestSpec, Transport } from './transport.js';
import type { ReadOptions, WriteOptions } from './types.js';
import { INVOICE_PATHS } from './wire.js';

const invoicePath = (template: string, id: string) => idPath(template, id, 'an invoice id (inv_...)');

/** The draft fields of a create or PATCH body, amounts as exact decimal text. */
function draftBody<P extends InvoiceDraftParams>(params: P) {
  return {
    ...params,
    lineItems: params.lineItems?.map((l) => ({
      ...l,
      quantity: decimalText(l.quantity),
      unitAmount: decimalText(l.unitAmount),
      taxPercent: optionalDecimal(l.taxPercent),
    })),
    dueAt: timeText(params.dueAt),
  };
}

/**
 * The merchant's invoices (`client.invoices`): a draft is edited, then finalized (its number and
 * public URL), sent, and paid through checkouts on its page. Scopes invoices:read and
 * invoices:write. Every write carries an Idempotency-Key (the caller's or a random one, the same
 * on every retry of the call). A move the state table does not allow is INVOICE_STATE_CONFLICT.
 */
export class Invoices<M extends AmountMode = 'string'> {
  constructor(private readonly transport: Transport) {}

  /** Creates a draft (POST /api/v1/cp/invoices): no number and no URL yet. */
  async create(params: CreateInvoiceParams, options: WriteOptions = {}): Promise<Invoice<M>> {
    return (await write(this.transport, 'POST', INVOICE_PATHS.invoices, draftBody(params), options)) as Invoice<M>;
  }

  /** One invoice; another merchant's id is NOT_FOUND. */
  async get(id: string, options: ReadOptions = {}): Promise<Invoice<M>> {
    const spec: RequestSpec = {
      method: 'GET',
      path: invoicePath(INVOICE_PATHS.invoice, id),
      query: { merchantId: options.merchantId },
      auth: 'bearer',
    };
    return (await this.transport.call(spec, options)) as Invoice<M>;
  }

  /** One page of invoices, newest first, filtered; pass `nextCursor` back as `cursor`. */
  list(params: ListInvoicesParams = {}): Promise<InvoicePage<M>> {
    const query = {
      merchantId: params.merchantId,
      status: params.status,
      customerEmail: params.customerEmail,
      limit: limitText(params.limit),
      cursor: params.cursor,
    };
    return page<Invoice<M>>(this.transport, INVOICE_PATHS.invoices, query, params);
  }

  /** Every invoice matching the filters, page after page (`limit` is the page size). */
  listAll(params: Omit<ListInvoicesParams, 'cursor'> = {}): AsyncGenerator<Invoice<M>, void, undefined> {
    return pages((p: ListInvoicesParams) => this.list(p), params);
  }

  /** Edits a draft (PATCH …/{id}): fields left out keep their value, `null` clears, `lineItems` replaces every line. */
  async update(id: string, params: UpdateInvoiceParams, options: WriteOptions = {}): Promise<Invoice<M>> {
    const path = invoicePath(INVOICE_PATHS.invoice, id);
    return (await write(this.transport, 'PATCH', path, draftBody(params), options)) as Invoice<M>;
  }

  /** Deletes a draft (DELETE …/{id}) and answers it as it was; a finalized invoice is refused (409 INVOICE_STATE_CONFLICT): void it instead. */
  async delete(id: string, options: WriteOptions = {}): Promise<Invoice<M>> {
    const path = invoicePath(INVOICE_PATHS.invoice, id);
    return (await write(this.transport, 'DELETE', path, undefined, options)) as Invoice<M>;
  }

  /** draft → open: the next number of the merchant's counter and the public URL. */
  finalize(id: string, options: WriteOptions = {}): Promise<Invoice<M>> {
    return this.move(INVOICE_PATHS.finalize, id, options);
  }

  /** open → void (none of its checkouts underpaid, processing or in review); it keeps its number. */
  void(id: string, options: WriteOptions = {}): Promise<Invoice<M>> {
    return this.move(INVOICE_PATHS.void, id, options);
  }

  /** open or partially_paid → uncollectible; it can still be paid on its page. */
  markUncollectible(id: string, options: WriteOptions = {}): Promise<Invoice<M>> {
    return this.move(INVOICE_PATHS.markUncollectible, id, options);
  }

  /** Emails the invoice to `customer.email` (CUSTOMER_EMAIL_MISSING without one); `sentAt` records it. */
  send(id: string, options: WriteOptions = {}): Promise<Invoice<M>> {
    return this.move(INVOICE_PATHS.send, id, options);
  }

  /** The invoice as a PDF document, its bytes (INVOICE_STATE_CONFLICT for a draft). */
  async pdf(id: string, options: ReadOptions = {}): Promise<Uint8Array> {
    const spec: RequestSpec = {
      method: 'GET',
      path: invoicePath(INVOICE_PATHS.pdf, id),
      query: { merchantId: options.merchantId },
      auth: 'bearer',
      stream: true,
      accept: 'application/pdf, application/json',
    };
    const res = (await this.transport.call(spec, options)) as Response;
    try {
      return new Uint8Array(await res.arrayBuffer());
    } catch (cause) {
      throw new HostpayError({
        status: res.status,
        code: 'NETWORK_ERROR',
        message: 'the connection broke in the middle of the PDF',
        cause,
      });
    }
  }

  private async move(template: string, id: string, options: WriteOptions): Promise<Invoice<M>> {
    return (await write(this.transport, 'POST', invoicePath(template, id), {}, options)) as Invoice<M>;
  }
}
