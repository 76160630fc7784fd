import { Settings } from './settings.js';
import { Checkouts } from './checkouts.js';
import { Invoices } from './invoices.js';
import { PaymentLinks } from './payment-links.js';
import { PayoutDestinations, Payouts } from './payouts.js';
import { decimalText, type AmountMode } from './decimals.js';
import { defaultRetryDelay, type RetryDelay } from './retry.js';
import { idPath, limitText, page } from './calls.js';
import { CHECKOUT_WEBHOOK_DELIVERIES_PATH, PATHS, SUMMARY_PATH } from './wire.js';
import { Transport } from './transport.js';
import { reportRows, reportText, type ReportKind, type ReportParams, type ReportRow } from './reports.js';
import type {
  CallOptions,
  FeePreview,
  IssueTokenParams,
  ListWalletsParams,
  PreviewFeesParams,
  CheckoutWebhookAttemptPage,
  ListCheckoutWebhookDeliveriesParams,
  Summary,
  TimeResult,
  TokenResult,
  Wallet,
} from './types.js';

export interface HostpayClientOptions<M extends AmountMode = 'string'> {
  /** Server address, e.g. `https://pay.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** The API key id (`hp_...`), sent in the `api-key` header. */
  apiKey: string;
  /** The API secret that signs every request; it is never sent. */
  apiSecret: string;
  /** A bearer token you manage yourself; by default the client obtains and renews one. */
  bearerToken?: string | undefined;
  /** Time budget per call in ms, retries and waits included. Default 30000. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt, for network errors, 429, 502, 503 and 504. Default 2. */
  maxRetries?: number | undefined;
  /** The fetch to use. Default: the global fetch. */
  fetch?: ((input: string, init: RequestInit) => Promise<Response>) | undefined;
  /** Decimal fields as exact strings ('string', default) or as numbers ('number', may lose digits). */
  amounts?: M | undefined;
  /** Lifetime in seconds of the tokens the client obtains itself, 60..86400. Default 3600. */
  tokenExpiresIn?: number | undefined;
  /** Wait before each retry, in ms. Default: Retry-After, else exponential backoff with jitter. */
  retryDelay?: RetryDelay | undefined;
  /** The local clock, ms since the epoch. Default Date.now. */
  now?: (() => number) | undefined;
  /**
   * Request signature version: 2 signs method and path too (header `signature-version: 2`).
   * Default 2 on every route. Version 1 is deprecated (the server answers it with `Deprecation`
   * and `Sunset` headers): `1` forces it everywhere, for a server older than version 2 only; the
   * server refuses it on every route but the wallet list, the fee preview and the token request.
   */
  signatureVersion?: 1 | 2 | undefined;
}

function required(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new TypeError(`HostpayClient: ${name} must be a non-empty string`);
  return value;
}

function count(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min)
    throw new TypeError(`HostpayClient: ${name} must be a whole number >= ${min}`);
  return value;
}

function version(value: unknown): 1 | 2 {
  if (value === undefined) return 2;
  if (value === 1 || value === 2) return value;
  throw new TypeError('HostpayClient: signatureVersion must be 1, 2 or undefined (version 2)');
}

/** Client for the hostpay merchant API. Every method rejects with a HostpayError only. */
export class HostpayClient<M extends AmountMode = 'string'> {
  private readonly transport: Transport;
  /** Hosted checkouts: create, get, list, cancel and (sandbox) simulatePayment. */
  readonly checkouts: Checkouts<M>;
  /** Payouts: create (request), get, list, cancel and (sandbox) simulate. */
  readonly payouts: Payouts<M>;
  /** The payout address book: create, list, revoke. */
  readonly payoutDestinations: PayoutDestinations;
  /** Payment links: create, get, list, update, deactivate/activate, listCheckouts. */
  readonly paymentLinks: PaymentLinks<M>;
  /** The merchant's settings: page name, logo, colours, default language, seller details. */
  readonly settings: Settings;
  /** Invoices: create (draft), get, list, update, delete, finalize, void, markUncollectible, send, pdf. */
  readonly invoices: Invoices<M>;

  private readonly amounts: AmountMode;

  constructor(options: HostpayClientOptions<M>) {
    this.amounts = options.amounts ?? 'string';
    this.transport = new Transport({
      baseUrl: required('baseUrl', options.baseUrl).replace(/\/+$/, ''),
      apiKey: required('apiKey', options.apiKey),
      apiSecret: required('apiSecret', options.apiSecret),
      bearerToken: options.bearerToken,
      timeoutMs: count('timeoutMs', options.timeoutMs, 30_000, 1),
      maxRetries: count('maxRetries', options.maxRetries, 2, 0),
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      amounts: options.amounts ?? 'string',
      tokenExpiresIn: options.tokenExpiresIn ?? 3600,
      retryDelay: options.retryDelay ?? defaultRetryDelay,
      now: options.now ?? Date.now,
      signatureVersion: version(options.signatureVersion),
    });
    this.checkouts = new Checkouts<M>(this.transport);
    this.payouts = new Payouts<M>(this.transport);
    this.payoutDestinations = new PayoutDestinations(this.transport);
    this.paymentLinks = new PaymentLinks<M>(this.transport);
    this.settings = new Settings(this.transport);
    this.invoices = new Invoices<M>(this.transport);
  }

  /** Server clock minus local clock in ms, as learned from the server (0 until it was needed). */
  get clockOffsetMs(): number {
    return this.transport.clockOffsetMs;
  }

  /** The wallets of the calling merchant (GET /api/v1/cp/wallets/). */
  async listWallets(params: ListWalletsParams = {}): Promise<Wallet<M>[]> {
    const spec = {
      method: 'GET',
      path: PATHS.wallets,
      query: { merchantId: params.merchantId },
      auth: 'bearer',
    } as const;
    return (await this.transport.call(spec, params)) as Wallet<M>[];
  }

  /**
   * The dashboard home's figures (GET /api/v1/cp/summary, scope checkout:read): balances, settled
   * volume today and this month (UTC) per currency, and the checkouts that need attention.
   */
  async summary(params: ListWalletsParams = {}): Promise<Summary<M>> {
    const spec = {
      method: 'GET',
      path: SUMMARY_PATH,
      query: { merchantId: params.merchantId },
      auth: 'bearer',
    } as const;
    return (await this.transport.call(spec, params)) as Summary<M>;
  }

  /**
   * The webhook delivery attempts of one checkout's events, newest first, one page (scope
   * webhooks:write); pass `nextCursor` back as `cursor`. Another merchant's checkout is NOT_FOUND.
   */
  async checkoutWebhookDeliveries(
    id: string,
    params: ListCheckoutWebhookDeliveriesParams = {},
  ): Promise<CheckoutWebhookAttemptPage> {
    const path = idPath(CHECKOUT_WEBHOOK_DELIVERIES_PATH, id, 'a checkout id (chk_...)');
    const query = { merchantId: params.merchantId, limit: limitText(params.limit), cursor: params.cursor };
    return page(this.transport, path, query, params);
  }

  /** The fees a hosted checkout of `amount` in `currency` would carry. */
  async previewFees(params: PreviewFeesParams): Promise<FeePreview<M>> {
    const query = { amount: decimalText(params.amount), currency: params.currency, merchantId: params.merchantId };
    const spec = { method: 'GET', path: PATHS.feesPreview, query, auth: 'bearer' } as const;
    return (await this.transport.call(spec, params)) as FeePreview<M>;
  }

  /** A new bearer token for this API key (POST /api/v1/auth/token); the client's own is unaffected. */
  async issueToken(params: IssueTokenParams = {}): Promise<TokenResult> {
    const body = { expiresIn: params.expiresIn, scope: params.scope };
    return (await this.transport.call({ method: 'POST', path: PATHS.token, body, auth: 'key' }, params)) as TokenResult;
  }

  /**
   * A report's rows, oldest first, as an async iterator over the server's stream (GET
   * /api/v1/cp/reports/{kind}?format=ndjson; scope reports:read and the kind's read scope):
   * `for await (const row of client.report('ledger', { from, to }))`. Constant memory whatever the
   * range; breaking out of the loop closes the connection.
   */
  report(kind: ReportKind, params: ReportParams): AsyncGenerator<ReportRow> {
    return reportRows(this.transport, this.amounts, kind, params);
  }

  /** A report file's text (CSV by default, or NDJSON) as the server streams it, chunk by chunk. */
  reportText(
    kind: ReportKind,
    params: ReportParams & { format?: 'csv' | 'ndjson' | undefined },
  ): AsyncGenerator<string> {
    return reportText(this.transport, kind, params);
  }

  /** The server clock (GET /api/v1/time, no authentication). */
  async serverTime(params: CallOptions = {}): Promise<TimeResult> {
    return (await this.transport.call({ method: 'GET', path: PATHS.time, auth: 'none' }, params)) as TimeResult;
  }
}
