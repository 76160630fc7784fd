import { idPath, limitText, optionalDecimal, page, pages, timeText, write } from './calls.js';
import type {
  CreatePaymentLinkParams,
  ListPaymentLinkCheckoutsParams,
  ListPaymentLinksParams,
  PaymentLink,
  PaymentLinkPage,
  UpdatePaymentLinkParams,
} from './commerce-types.js';
import { decimalText, type AmountMode } from './decimals.js';
import type { RequestSpec, Transport } from './transport.js';
import type { Checkout, CheckoutPage, ReadOptions, WriteOptions } from './types.js';
import { PAYMENT_LINK_PATHS } from './wire.js';

const linkPath = (template: string, id: string) => idPath(template, id, 'a payment link id (plink_...)');

/**
 * The merchant's payment links (`client.paymentLinks`): reusable pages, `<public base>/l/{slug}`,
 * that make a fresh checkout for each payer. Scopes links:read and links:write; a link's
 * checkouts need checkout:read. Writes carry an Idempotency-Key (the caller's or a random one,
 * the same on every retry of the call). There is no delete: deactivate a link instead.
 */
export class PaymentLinks<M extends AmountMode = 'string'> {
  constructor(private readonly transport: Transport) {}

  /** Creates a link (POST /api/v1/cp/payment-links); amounts go out as exact decimal text. */
  async create(params: CreatePaymentLinkParams, options: WriteOptions = {}): Promise<PaymentLink<M>> {
    const body = {
      ...params,
      amount: optionalDecimal(params.amount),
      minAmount: optionalDecimal(params.minAmount),
      maxAmount: optionalDecimal(params.maxAmount),
      lineItems: params.lineItems?.map((l) => ({ ...l, unitAmount: decimalText(l.unitAmount) })),
      expiresAt: timeText(params.expiresAt),
    };
    return (await write(this.transport, 'POST', PAYMENT_LINK_PATHS.links, body, options)) as PaymentLink<M>;
  }

  /** One link; another merchant's id is NOT_FOUND. */
  async get(id: string, options: ReadOptions = {}): Promise<PaymentLink<M>> {
    const spec: RequestSpec = {
      method: 'GET',
      path: linkPath(PAYMENT_LINK_PATHS.link, id),
      query: { merchantId: options.merchantId },
      auth: 'bearer',
    };
    return (await this.transport.call(spec, options)) as PaymentLink<M>;
  }

  /** One page of links, newest first; pass `nextCursor` back as `cursor`. */
  list(params: ListPaymentLinksParams = {}): Promise<PaymentLinkPage<M>> {
    const query = {
      merchantId: params.merchantId,
      active: params.active === undefined ? undefined : String(params.active),
      limit: limitText(params.limit),
      cursor: params.cursor,
    };
    return page<PaymentLink<M>>(this.transport, PAYMENT_LINK_PATHS.links, query, params);
  }

  /** Every link matching the filter, page after page (`limit` is the page size). */
  listAll(params: Omit<ListPaymentLinksParams, 'cursor'> = {}): AsyncGenerator<PaymentLink<M>, void, undefined> {
    return pages((p: ListPaymentLinksParams) => this.list(p), params);
  }

  /**
   * Changes a link (PATCH …/{id}): name, description, active, maxUses, expiresAt, successUrl,
   * cancelUrl, metadata; `null` clears. The price never changes; checkouts already made keep theirs.
   */
  async update(id: string, params: UpdatePaymentLinkParams, options: WriteOptions = {}): Promise<PaymentLink<M>> {
    const body = { ...params, expiresAt: timeText(params.expiresAt) };
    return (await write(
      this.transport,
      'PATCH',
      linkPath(PAYMENT_LINK_PATHS.link, id),
      body,
      options,
    )) as PaymentLink<M>;
  }

  /** Stops the link making checkouts (`active: false`): its page answers 410. Checkouts made stay payable. */
  deactivate(id: string, options: WriteOptions = {}): Promise<PaymentLink<M>> {
    return this.update(id, { active: false }, options);
  }

  /** Lets a deactivated link make checkouts again (`active: true`), unless expired or used up. */
  activate(id: string, options: WriteOptions = {}): Promise<PaymentLink<M>> {
    return this.update(id, { active: true }, options);
  }

  /** One page of the checkouts the link made, newest first (scope checkout:read). */
  listCheckouts(id: string, params: ListPaymentLinkCheckoutsParams = {}): Promise<CheckoutPage<M>> {
    const query = { merchantId: params.merchantId, limit: limitText(params.limit), cursor: params.cursor };
    return page<Checkout<M>>(this.transport, linkPath(PAYMENT_LINK_PATHS.checkouts, id), query, params);
  }
}
