import { type Checkout, HostpayClient, isHostpayError } from '@hostpay/client';
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from '@medusajs/framework/types';
import { AbstractPaymentProvider, BigNumber, MedusaError } from '@medusajs/framework/utils';
import { toHostpayAmount, type MedusaAmount } from './amounts.js';
import { type HostpayOptions, optionProblems } from './options.js';
import { planRefund, type RefundRecord } from './refunds.js';
import { sessionStatus } from './status.js';
import { decideWebhook } from './webhook.js';

/** What the provider keeps in the Medusa payment session's `data` (the storefront reads `url`). */
export interface HostpaySessionData extends Record<string, unknown> {
  session_id?: string;
  /** The hostpay checkout (`chk_…`). */
  checkout_id?: string;
  /** The hosted payment page: redirect the payer here. */
  url?: string;
  /** hostpay's checkout status when last looked at. */
  checkout_status?: string;
  amount?: string;
  currency?: string;
  expires_at?: string;
  /** The refunds asked for so far, oldest first (a refund link's `url` is for the payer). */
  refunds?: RefundRecord[];
}

/**
 * hostpay as a Medusa v2 payment provider (`pp_hostpay_<id>`): a hosted checkout per payment
 * session. The storefront redirects the payer to the session's `data.url`; hostpay's
 * `checkout.settled` webhook (or the storefront completing the cart) authorizes and captures it.
 */
export class HostpayPaymentProvider extends AbstractPaymentProvider<HostpayOptions> {
  static override identifier = 'hostpay';

  protected readonly options_: HostpayOptions;
  protected readonly client: HostpayClient;
  protected readonly logger_: Logger | undefined;

  static override validateOptions(options: Record<string, unknown>): void {
    const problems = optionProblems(options);
    if (problems.length > 0)
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `hostpay payment provider: ${problems.join('; ')}`);
  }

  constructor(cradle: Record<string, unknown>, options: HostpayOptions) {
    super(cradle, options);
    this.options_ = options;
    this.logger_ = cradle['logger'] as Logger | undefined;
    this.client = new HostpayClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, apiSecret: options.apiSecret });
  }

  /**
   * Creates the hosted checkout for the session's amount and currency; `orderId` is the session
   * id, and the Idempotency-Key is derived from it, so a retried call makes one checkout.
   * The storefront may pass `success_url` and `cancel_url` in the session data.
   */
  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const data = (input.data ?? {}) as Record<string, unknown>;
    const sessionId = stringField(data, 'session_id') ?? input.context?.idempotency_key;
    if (!sessionId) throw invalid('initiatePayment needs the payment session id (data.session_id)');
    const checkout = await this.createCheckout(sessionId, input.amount, input.currency_code, data, sessionId);
    return { id: checkout.id, status: sessionStatus(checkout.status), data: sessionData(sessionId, checkout) };
  }

  /**
   * The cart's amount changed: a checkout's amount is fixed, so the open checkout is canceled and
   * a new one made for the new amount (a key derived from the session, the replaced checkout and the amount).
   */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const data = (input.data ?? {}) as HostpaySessionData;
    const amount = toHostpayAmount(input.amount as MedusaAmount);
    const currency = input.currency_code.toUpperCase();
    if (data.checkout_id && data.amount === amount && data.currency === currency) return { data };
    const sessionId = data.session_id ?? input.context?.idempotency_key;
    if (!sessionId) throw invalid('updatePayment needs the payment session id (data.session_id)');
    if (data.checkout_id) await this.cancelQuietly(data.checkout_id);
    // The checkout being replaced is part of the key: back to an amount the session had before
    // makes a new checkout rather than replaying the one this session canceled; a retry of this
    // same update (same replaced checkout) still makes one.
    const key = `${sessionId}:${data.checkout_id ?? '-'}:${amount}:${currency}`;
    const checkout = await this.createCheckout(sessionId, amount, currency, data, key);
    return { status: sessionStatus(checkout.status), data: sessionData(sessionId, checkout, data) };
  }

  /** Settled → captured (crypto has no separate capture); anything else is not authorized yet. */
  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    return this.getPaymentStatus(input);
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const data = (input.data ?? {}) as HostpaySessionData;
    const checkout = await this.client.checkouts.get(checkoutIdOf(data));
    return { status: sessionStatus(checkout.status), data: refreshed(data, checkout) };
  }

  /** The money was captured when the checkout settled: nothing to ask hostpay. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    return { data: input.data ?? {} };
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const { data } = await this.getPaymentStatus(input);
    return data === undefined ? {} : { data };
  }

  /**
   * Cancels the open checkout. One that expired or was canceled already is fine; one that received
   * money cannot be canceled (refund it instead), which is an error Medusa shows.
   */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = (input.data ?? {}) as HostpaySessionData;
    const id = checkoutIdOf(data);
    try {
      const canceled = await this.client.checkouts.cancel(id, { idempotencyKey: `cancel:${id}` });
      return { data: refreshed(data, canceled) };
    } catch (err) {
      if (!isHostpayError(err) || err.code !== 'CHECKOUT_STATE_CONFLICT') throw err;
      const checkout = await this.client.checkouts.get(id);
      if (checkout.status === 'expired' || checkout.status === 'canceled') return { data: refreshed(data, checkout) };
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `hostpay checkout ${id} is ${checkout.status} and has received money: refund it instead of canceling`,
      );
    }
  }

  /** The session was dropped (another provider chosen, the cart changed): its open checkout is canceled. */
  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const data = (input.data ?? {}) as HostpaySessionData;
    if (data.checkout_id) await this.cancelQuietly(data.checkout_id);
    return { data };
  }

  /**
   * Refunds in the asset the payer paid: a share of what the checkout received equal to the
   * refund's share of the checkout's amount (all of it for a full refund). With
   * `data.refund_address` (an active address of the merchant's payout book) the refund is paid
   * there; without one, hostpay answers a refund link for the payer, kept in `data.refunds`.
   */
  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = (input.data ?? {}) as HostpaySessionData;
    const id = checkoutIdOf(data);
    const checkout = await this.client.checkouts.get(id);
    const previous = Array.isArray(data.refunds) ? data.refunds : [];
    const plan = planRefund(checkout, toHostpayAmount(input.amount as MedusaAmount));
    const destination = stringField(data, 'refund_address');
    // One key per refund of this payment: a retry of the same refund asks once.
    const idempotencyKey = `refund:${id}:${previous.length}`;
    const answer = await this.client.checkouts.refund(
      id,
      { amount: plan.amount, ...(destination === undefined ? {} : { destination }) },
      { idempotencyKey },
    );
    const record: RefundRecord =
      'url' in answer
        ? { kind: 'link', id: answer.id, url: answer.url, amount: plan.amount, asset: plan.asset, chain: plan.chain }
        : { kind: 'payout', id: answer.id, amount: plan.amount, asset: plan.asset, chain: plan.chain };
    this.logger_?.info(
      `hostpay: refund of ${plan.amount} ${plan.asset} for checkout ${id} (${record.kind} ${record.id})`,
    );
    return { data: { ...data, refunds: [...previous, record] } };
  }

  /**
   * A delivery to `/hooks/payment/hostpay_<id>`: verified (signature in constant time, timestamp
   * within `webhookTolerance`), then `checkout.settled` captures the session named in `orderId`.
   * Anything refused or not attributable is `not_supported`, and logged.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload['payload']): Promise<WebhookActionResult> {
    const decision = await decideWebhook(payload, {
      secret: this.options_.webhookSecret,
      ...(this.options_.webhookTolerance === undefined ? {} : { tolerance: this.options_.webhookTolerance }),
    });
    if (decision.ignored) {
      // A refused delivery is named by its (unverified) webhook-id, so a shop can find it in hostpay's log.
      const what = decision.event
        ? `event ${decision.event.id} (${decision.event.type})`
        : `delivery ${JSON.stringify(webhookIdOf(payload.headers))}`;
      const line = `hostpay webhook: ${what} ignored, ${decision.ignored.reason}: ${decision.ignored.message}`;
      if (decision.event) this.logger_?.info(line);
      else this.logger_?.warn(line);
      return { action: 'not_supported' };
    }
    const { session_id, amount } = decision.data!;
    this.logger_?.info(`hostpay webhook: ${decision.event!.type} → ${decision.action} for ${session_id}`);
    return { action: decision.action, data: { session_id, amount: new BigNumber(amount) } };
  }

  private async createCheckout(
    sessionId: string,
    amount: MedusaAmount,
    currencyCode: string,
    data: Record<string, unknown>,
    idempotencyKey: string,
  ): Promise<Checkout> {
    const o = this.options_;
    const successUrl = stringField(data, 'success_url') ?? o.successUrl;
    const cancelUrl = stringField(data, 'cancel_url') ?? o.cancelUrl;
    const description = o.description;
    return this.client.checkouts.create(
      {
        amount: toHostpayAmount(amount),
        currency: currencyCode.toUpperCase(),
        orderId: sessionId,
        ...(description === undefined ? {} : { description }),
        ...(o.paymentOptions === undefined ? {} : { paymentOptions: o.paymentOptions }),
        ...(o.expiresIn === undefined ? {} : { expiresIn: o.expiresIn }),
        ...(successUrl === undefined ? {} : { successUrl }),
        ...(cancelUrl === undefined ? {} : { cancelUrl }),
        metadata: { medusa_session: sessionId },
      },
      { idempotencyKey: `medusa:${idempotencyKey}` },
    );
  }

  /** Cancels an open checkout; one already paid, expired or canceled is left as it is. */
  private async cancelQuietly(id: string): Promise<void> {
    try {
      await this.client.checkouts.cancel(id, { idempotencyKey: `cancel:${id}` });
    } catch (err) {
      if (!isHostpayError(err) || (err.code !== 'CHECKOUT_STATE_CONFLICT' && err.code !== 'NOT_FOUND')) throw err;
    }
  }
}

function webhookIdOf(headers: unknown): string {
  const id =
    headers !== null && typeof headers === 'object' ? (headers as Record<string, unknown>)['webhook-id'] : undefined;
  return typeof id === 'string' ? id.slice(0, 64) : '(no webhook-id)';
}

function invalid(message: string): MedusaError {
  return new MedusaError(MedusaError.Types.INVALID_DATA, `hostpay: ${message}`);
}

function stringField(data: Record<string, unknown>, name: string): string | undefined {
  const v = data[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function checkoutIdOf(data: HostpaySessionData): string {
  if (typeof data.checkout_id !== 'string' || data.checkout_id === '')
    throw invalid('the payment session has no hostpay checkout (data.checkout_id)');
  return data.checkout_id;
}

function sessionData(sessionId: string, checkout: Checkout, before: HostpaySessionData = {}): HostpaySessionData {
  return { ...before, session_id: sessionId, ...refreshed({}, checkout) };
}

function refreshed(data: HostpaySessionData, checkout: Checkout): HostpaySessionData {
  return {
    ...data,
    checkout_id: checkout.id,
    url: checkout.url,
    checkout_status: checkout.status,
    amount: checkout.amount,
    currency: checkout.currency,
    expires_at: checkout.expiresAt,
  };
}
