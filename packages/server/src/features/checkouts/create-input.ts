import { type CreateCheckoutBody, type Decimal, parseAmount } from '@hostpay/protocol';
import { isIP } from 'node:net';
import { HostpayError } from '../../errors.js';
import { emailField } from '../../http/email-field.js';

/** A create request as the route hands it over: the wire body (amount as the JSON number's exact text, or a string). */
export type CreateCheckoutRequest = CreateCheckoutBody;

export interface CheckedCreateRequest {
  amount: Decimal;
  currency: string;
  orderId: string | null;
  description: string | null;
  paymentOptions: { asset: string; chain: string }[] | null;
  expiresIn: number;
  successUrl: string | null;
  cancelUrl: string | null;
  metadata: Record<string, string>;
  customerEmail: string | null;
}

/** Who made a checkout besides the merchant's API: set by payment links and invoices, never by the wire. */
export interface CheckoutOrigin {
  paymentLinkId?: string | null;
  invoiceId?: string | null;
}

export const LIMITS = {
  orderId: 64,
  description: 500,
  metadataPairs: 20,
  metadataKey: 40,
  metadataValue: 500,
  url: 2048,
  options: 20,
  expiresMin: 300,
  expiresMax: 86_400,
  expiresDefault: 900,
} as const;

const bad = (field: string, message: string): never => {
  throw new HostpayError('INVALID_BODY', `${field} ${message}`, { field });
};

/** Loopback hosts in every spelling a URL parser gives them (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (host === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+|7f[0-9a-f]{2}:[0-9a-f]{1,4})$/.exec(host);
  return mapped !== null;
}

/** A return URL the payer is sent to: https, or http to loopback in a sandbox; no credentials. */
export function checkReturnUrl(field: string, text: string | undefined, sandbox: boolean): string | null {
  if (text === undefined) return null;
  if (text.length > LIMITS.url)
    throw new HostpayError('INVALID_URL', `${field} must be at most ${LIMITS.url} characters`, { field });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new HostpayError('INVALID_URL', `${field} is not an absolute URL: send e.g. https://shop.example/thanks`, {
      field,
    });
  }
  if (url.username !== '' || url.password !== '')
    throw new HostpayError('INVALID_URL', `${field} must not carry a user name or password`, { field });
  if (url.protocol === 'https:') return url.href;
  if (url.protocol === 'http:' && sandbox && isLoopbackHost(url.hostname)) return url.href;
  throw new HostpayError(
    'INVALID_URL',
    `${field} must be an https URL${sandbox ? ' (or http to localhost in this sandbox)' : ''}; got ${url.protocol.replace(':', '')}`,
    { field },
  );
}

/** Every field limit of the contract, each with its own message. */
export function checkCreateRequest(req: CreateCheckoutRequest, sandbox: boolean): CheckedCreateRequest {
  const amountText = typeof req.amount === 'number' ? String(req.amount) : req.amount;
  const amount = parseAmount(amountText);
  if (!amount.ok)
    throw new HostpayError(
      'INVALID_AMOUNT',
      `amount ${amount.reason}: send the checkout amount as a positive decimal, e.g. "99.95" or 99.95`,
      { field: 'amount' },
    );
  if (!/^[A-Za-z0-9]{2,12}$/.test(req.currency))
    throw new HostpayError(
      'INVALID_CURRENCY',
      'currency must be a currency or asset code of 2 to 12 letters or digits, e.g. EUR or USDT',
      { field: 'currency' },
    );
  if (req.orderId !== undefined && (req.orderId.length === 0 || req.orderId.length > LIMITS.orderId))
    bad('orderId', `must be 1 to ${LIMITS.orderId} characters`);
  if (req.description !== undefined && req.description.length > LIMITS.description)
    bad('description', `must be at most ${LIMITS.description} characters`);
  const expiresIn = req.expiresIn ?? LIMITS.expiresDefault;
  if (!Number.isInteger(expiresIn) || expiresIn < LIMITS.expiresMin || expiresIn > LIMITS.expiresMax)
    bad(
      'expiresIn',
      `must be a whole number of seconds from ${LIMITS.expiresMin} to ${LIMITS.expiresMax} (default ${LIMITS.expiresDefault})`,
    );
  const metadata = req.metadata ?? {};
  const pairs = Object.entries(metadata);
  if (pairs.length > LIMITS.metadataPairs)
    bad('metadata', `may hold at most ${LIMITS.metadataPairs} pairs; got ${pairs.length}`);
  for (const [k, v] of pairs) {
    if (k.length === 0 || k.length > LIMITS.metadataKey)
      bad('metadata', `keys must be 1 to ${LIMITS.metadataKey} characters; ${JSON.stringify(k.slice(0, 50))} is not`);
    if (typeof v !== 'string' || v.length > LIMITS.metadataValue)
      bad(
        'metadata',
        `values must be strings of at most ${LIMITS.metadataValue} characters (key ${JSON.stringify(k)})`,
      );
  }
  let options: { asset: string; chain: string }[] | null = null;
  if (req.paymentOptions !== undefined) {
    if (req.paymentOptions.length === 0 || req.paymentOptions.length > LIMITS.options)
      bad(
        'paymentOptions',
        `must list 1 to ${LIMITS.options} {asset, chain} pairs, or be left out to offer every active wallet`,
      );
    const seen = new Set<string>();
    options = req.paymentOptions.map((o) => {
      const pair = { asset: o.asset.toUpperCase(), chain: o.chain.toUpperCase() };
      const id = `${pair.asset}/${pair.chain}`;
      if (seen.has(id)) bad('paymentOptions', `lists ${pair.asset} on ${pair.chain} twice`);
      seen.add(id);
      return pair;
    });
  }
  return {
    amount: amount.value,
    currency: req.currency.toUpperCase(),
    orderId: req.orderId ?? null,
    description: req.description ?? null,
    paymentOptions: options,
    expiresIn,
    successUrl: checkReturnUrl('successUrl', req.successUrl, sandbox),
    cancelUrl: checkReturnUrl('cancelUrl', req.cancelUrl, sandbox),
    metadata: Object.fromEntries(pairs),
    customerEmail: checkCustomerEmail(req.customerEmail),
  };
}

/** `customerEmail` of a create: null when absent, else one plain address (400 INVALID_EMAIL). */
export function checkCustomerEmail(text: string | undefined, field = 'customerEmail'): string | null {
  return text === undefined ? null : emailField(field, text);
}
