import { decimalText, type AmountMode } from './decimals.js';
import { idPath as pathOf, limitText, pages, page, write } from './calls.js';
import type { RequestSpec, Transport } from './transport.js';
import type { Payout, RefundLink, RefundLinkParams, RefundParams } from './payout-types.js';
import type {
  Checkout,
  CheckoutPage,
  CreateCheckoutParams,
  ListCheckoutsParams,
  ReadOptions,
  SimulatePaymentParams,
  WriteOptions,
} from './types.js';
import { CHECKOUT_PATHS, PAYOUT_PATHS } from './wire.js';

const idPath = (template: string, id: string): string => pathOf(template, id, 'a checkout id (chk_...)');

const isoText = (value: string | Date | undefined): string | undefined =>
  value instanceof Date ? value.toISOString() : value;

/**
 * The hosted checkouts of the calling merchant (`client.checkouts`). Every POST carries an
 * Idempotency-Key, the caller's or a fresh random one, the same on every retry of the call: a
 * create or a simulated payment whose answer was lost is not done twice when it is retried.
 */
export class Checkouts<M extends AmountMode = 'string'> {
  constructor(private readonly transport: Transport) {}

  /** Creates a checkout (POST /api/v1/cp/psp/hosted-pay); `amount` goes out as exact decimal text. */
  async create(params: CreateCheckoutParams, options: WriteOptions = {}): Promise<Checkout<M>> {
    // The caller's key order is kept (the body is signed exactly as sent); amount becomes text.
    const body = { ...params, amount: decimalText(params.amount) };
    return (await this.write(CHECKOUT_PATHS.checkouts, body, options)) as Checkout<M>;
  }

  /** One checkout; another merchant's id is NOT_FOUND. */
  async get(id: string, options: ReadOptions = {}): Promise<Checkout<M>> {
    const spec: RequestSpec = {
      method: 'GET',
      path: idPath(CHECKOUT_PATHS.checkout, id),
      query: { merchantId: options.merchantId },
      auth: 'bearer',
    };
    return (await this.transport.call(spec, options)) as Checkout<M>;
  }

  /** One page of checkouts, newest first, filtered; pass `nextCursor` back as `cursor`. */
  list(params: ListCheckoutsParams = {}): Promise<CheckoutPage<M>> {
    const query = {
      merchantId: params.merchantId,
      status: params.status,
      orderId: params.orderId,
      paymentLinkId: params.paymentLinkId,
      invoiceId: params.invoiceId,
      createdFrom: isoText(params.createdFrom),
      createdTo: isoText(params.createdTo),
      limit: limitText(params.limit),
      cursor: params.cursor,
    };
    return page<Checkout<M>>(this.transport, CHECKOUT_PATHS.checkouts, query, params);
  }

  /** Every checkout matching the filters, page after page (`limit` is the page size). */
  listAll(params: Omit<ListCheckoutsParams, 'cursor'> = {}): AsyncGenerator<Checkout<M>, void, undefined> {
    return pages((p: ListCheckoutsParams) => this.list(p), params);
  }

  /** Cancels an open checkout; anything else is CHECKOUT_STATE_CONFLICT (409). */
  async cancel(id: string, options: WriteOptions = {}): Promise<Checkout<M>> {
    return (await this.write(idPath(CHECKOUT_PATHS.cancel, id), {}, options)) as Checkout<M>;
  }

  /**
   * Sandbox only (NOT_FOUND on other servers): pays the checkout as if a chain indexer had seen a
   * transfer of `amount` (default: what is still due) of `asset` on `chain`.
   */
  async simulatePayment(id: string, params: SimulatePaymentParams, options: WriteOptions = {}): Promise<Checkout<M>> {
    const body = { ...params, amount: params.amount === undefined ? undefined : decimalText(params.amount) };
    return (await this.write(idPath(CHECKOUT_PATHS.simulatePayment, id), body, options)) as Checkout<M>;
  }

  /**
   * Refunds a checkout that received money (POST …/hosted-pay/{id}/refunds): a payout with
   * `refundOf` = the checkout, in its asset and chain, of at most what it received minus earlier
   * refunds. Without `destination` the server answers with a refund link for the payer instead.
   */
  async refund(id: string, params: RefundParams, options: WriteOptions = {}): Promise<Payout<M> | RefundLink<M>> {
    const body = { ...params, amount: decimalText(params.amount) };
    return (await this.write(idPath(PAYOUT_PATHS.refunds, id), body, options)) as Payout<M> | RefundLink<M>;
  }

  /**
   * A link the payer opens on the hosted page to give the refund's address (valid 7 days, usable
   * once), for `amount` when given; mailed to the payer too with `sendEmail: true`.
   */
  async refundLink(id: string, params: RefundLinkParams = {}, options: WriteOptions = {}): Promise<RefundLink<M>> {
    const { amount, ...mail } = params;
    const body = amount === undefined ? mail : { ...mail, amount: decimalText(amount) };
    return (await this.write(idPath(PAYOUT_PATHS.refundLink, id), body, options)) as RefundLink<M>;
  }

  private write(path: string, body: object, options: WriteOptions): Promise<unknown> {
    return write(this.transport, 'POST', path, body, options);
  }
}
