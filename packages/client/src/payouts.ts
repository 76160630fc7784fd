import { idPath, limitText, page, pages, write } from './calls.js';
import { decimalText, type AmountMode } from './decimals.js';
import type { RequestSpec, Transport } from './transport.js';
import type {
  CreateDestinationParams,
  CreatePayoutParams,
  Destination,
  DestinationPage,
  ListDestinationsParams,
  ListPayoutsParams,
  Payout,
  PayoutPage,
} from './payout-types.js';
import type { ReadOptions, WriteOptions } from './types.js';
import { PAYOUT_PATHS } from './wire.js';

const payoutPath = (template: string, id: string) => idPath(template, id, 'a payout id (po_...)');

/**
 * The payouts of the calling merchant (`client.payouts`): money out of a wallet to an address of
 * the merchant's address book. Needs a key with the `payouts:write` scope to request or cancel.
 * Every POST carries an Idempotency-Key (the caller's, else a random one kept for all retries of
 * the call), so a request whose answer was lost is not made twice when it is retried.
 */
export class Payouts<M extends AmountMode = 'string'> {
  constructor(private readonly transport: Transport) {}

  /**
   * Requests a payout (POST /api/v1/cp/payouts). Its `total` (amount + network fee) is frozen in
   * the wallet at once; it is `approved` when within the auto-approve limit and the destination
   * is active, else `pending_approval` for an operator.
   */
  async create(params: CreatePayoutParams, options: WriteOptions = {}): Promise<Payout<M>> {
    const body = { ...params, amount: decimalText(params.amount) };
    return (await write(this.transport, 'POST', PAYOUT_PATHS.payouts, body, options)) as Payout<M>;
  }

  /** One payout; another merchant's id is NOT_FOUND. */
  async get(id: string, options: ReadOptions = {}): Promise<Payout<M>> {
    const spec: RequestSpec = {
      method: 'GET',
      path: payoutPath(PAYOUT_PATHS.payout, id),
      query: { merchantId: options.merchantId },
      auth: 'bearer',
    };
    return (await this.transport.call(spec, options)) as Payout<M>;
  }

  /** One page of payouts, filtered; pass `nextCursor` back as `cursor`. */
  list(params: ListPayoutsParams = {}): Promise<PayoutPage<M>> {
    const query = {
      merchantId: params.merchantId,
      status: params.status,
      limit: limitText(params.limit),
      cursor: params.cursor,
    };
    return page<Payout<M>>(this.transport, PAYOUT_PATHS.payouts, query, params);
  }

  /** Every payout matching the filters, page after page (`limit` is the page size). */
  listAll(params: Omit<ListPayoutsParams, 'cursor'> = {}): AsyncGenerator<Payout<M>, void, undefined> {
    return pages((p: ListPayoutsParams) => this.list(p), params);
  }

  /** Cancels a payout still pending_approval or approved (its total is unfrozen); else PAYOUT_STATE_CONFLICT. */
  async cancel(id: string, options: WriteOptions = {}): Promise<Payout<M>> {
    return (await write(this.transport, 'POST', payoutPath(PAYOUT_PATHS.cancel, id), {}, options)) as Payout<M>;
  }

  /**
   * Sandbox only (NOT_FOUND on other servers): moves an `approved` payout through `sent` to
   * `outcome` (default completed), as if it had been sent and confirmed, or had failed.
   */
  async simulate(
    id: string,
    params: { outcome?: 'completed' | 'failed' | undefined } = {},
    options: WriteOptions = {},
  ): Promise<Payout<M>> {
    const body = { outcome: params.outcome ?? 'completed' };
    return (await write(this.transport, 'POST', payoutPath(PAYOUT_PATHS.simulate, id), body, options)) as Payout<M>;
  }
}

const destinationPath = (template: string, id: string) => idPath(template, id, 'a destination id (dst_...)');

/**
 * The merchant's payout address book (`client.payoutDestinations`). A new destination cools off
 * (status `cooling_off` until `activeFrom`, the merchant's cooling-off period) before a payout
 * may use it, unless an operator activates it sooner.
 */
export class PayoutDestinations {
  constructor(private readonly transport: Transport) {}

  /**
   * Adds an address (POST /api/v1/cp/payout-destinations); one not valid for its chain, or a burn
   * address, is INVALID_ADDRESS. An address already in the book answers its existing entry.
   */
  async create(params: CreateDestinationParams, options: WriteOptions = {}): Promise<Destination> {
    return (await write(this.transport, 'POST', PAYOUT_PATHS.destinations, { ...params }, options)) as Destination;
  }

  /** One page of the address book; pass `nextCursor` back as `cursor`. */
  list(params: ListDestinationsParams = {}): Promise<DestinationPage> {
    const query = { merchantId: params.merchantId, limit: limitText(params.limit), cursor: params.cursor };
    return page<Destination>(this.transport, PAYOUT_PATHS.destinations, query, params);
  }

  /** Every destination, page after page. */
  listAll(params: Omit<ListDestinationsParams, 'cursor'> = {}): AsyncGenerator<Destination, void, undefined> {
    return pages((p: ListDestinationsParams) => this.list(p), params);
  }

  /** Revokes a destination (DELETE …/{id}): no payout can use it afterwards. */
  async revoke(id: string, options: WriteOptions = {}): Promise<Destination> {
    return (await write(
      this.transport,
      'DELETE',
      destinationPath(PAYOUT_PATHS.destination, id),
      undefined,
      options,
    )) as Destination;
  }
}
