import { decimalText, type AmountMode } from './decimals.js';
import { HostpayError } from './errors.js';
import type { RequestSpec, Transport } from './transport.js';
import type {
  Checkout,
  CheckoutPage,
  CreateCheckoutParams,
  ListCheckoutsParams,
  ReadOptions,
  SimulatePaymentParams,
  WriteOptions,
} from './types.js';
import { CHECKOUT_PATHS } from './wire.js';

/**
 * A random Idempotency-Key. crypto.randomUUID exists on Node, Deno, Bun and edge runtimes, but
 * browsers offer it only in secure contexts: there 16 random bytes as hex do the same job.
 */
function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  return Array.from(c.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** An id put into a path: never empty (that would name another route), always one segment. */
function idPath(template: string, id: string): string {
  if (typeof id !== 'string' || id === '') {
    throw new HostpayError({ status: 0, code: 'INVALID_ARGUMENT', message: 'a checkout id (chk_...) is required' });
  }
  return template.replace(':id', encodeURIComponent(id));
}

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
  async list(params: ListCheckoutsParams = {}): Promise<CheckoutPage<M>> {
    const query = {
      merchantId: params.merchantId,
      status: params.status,
      orderId: params.orderId,
      createdFrom: isoText(params.createdFrom),
      createdTo: isoText(params.createdTo),
      limit: params.limit === undefined ? undefined : String(params.limit),
      cursor: params.cursor,
    };
    const spec: RequestSpec = { method: 'GET', path: CHECKOUT_PATHS.checkouts, query, auth: 'bearer', envelope: true };
    const doc = (await this.transport.call(spec, params)) as { result: Checkout<M>[]; nextCursor?: string | null };
    return { items: doc.result, nextCursor: doc.nextCursor ?? null };
  }

  /** Every checkout matching the filters, page after page (`limit` is the page size). */
  async *listAll(params: Omit<ListCheckoutsParams, 'cursor'> = {}): AsyncGenerator<Checkout<M>, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ ...params, cursor });
      yield* page.items;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
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

  private write(path: string, body: object, options: WriteOptions): Promise<unknown> {
    const headers = { 'idempotency-key': options.idempotencyKey ?? newIdempotencyKey() };
    return this.transport.call(
      { method: 'POST', path, query: { merchantId: options.merchantId }, body, auth: 'bearer', headers },
      options,
    );
  }
}
