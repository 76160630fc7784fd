/** The provider's options, as `medusa-config.ts` gives them (README "Configure"). */
export interface HostpayOptions {
  /** The hostpay server, e.g. `https://pay.example.com` (no `/api/v1`). */
  baseUrl: string;
  /** API key id (`hp_…`) with checkout:read, checkout:write and, for refunds, payouts:write. */
  apiKey: string;
  /** API secret (`sk_…`); signs every request, never sent. */
  apiSecret: string;
  /** The webhook endpoint's signing secret (`whsec_…`), shown once when the endpoint was created. */
  webhookSecret: string;
  /** What the payer may pay with, e.g. `[{ asset: 'USDT', chain: 'TRON' }]`; default: every wallet hostpay can price. */
  paymentOptions?: { asset: string; chain: string }[];
  /** Where the hosted page sends the payer once paid, unless the storefront gives `success_url`. */
  successUrl?: string;
  /** Where the hosted page's "back to the shop" link goes, unless the storefront gives `cancel_url`. */
  cancelUrl?: string;
  /** Seconds a checkout stays payable, 300..86400 (hostpay's default 900). */
  expiresIn?: number;
  /** Accepted age of a webhook's timestamp, seconds (default 300). */
  webhookTolerance?: number;
  /** The checkout's description shown on the hosted page (default: none). */
  description?: string;
}

const REQUIRED = ['baseUrl', 'apiKey', 'apiSecret', 'webhookSecret'] as const;

/** The reasons `options` is not usable, each saying what to fix; empty when it is. */
export function optionProblems(options: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const name of REQUIRED)
    if (typeof options[name] !== 'string' || options[name] === '')
      problems.push(`${name} is required (a non-empty string)`);
  if (typeof options['baseUrl'] === 'string' && options['baseUrl'] !== '' && !/^https?:\/\//.test(options['baseUrl']))
    problems.push('baseUrl must be an http(s) URL, e.g. https://pay.example.com');
  if (typeof options['webhookSecret'] === 'string' && options['webhookSecret'] !== '')
    if (!options['webhookSecret'].startsWith('whsec_'))
      problems.push('webhookSecret must be the whsec_… secret hostpay showed when the endpoint was created');
  const po = options['paymentOptions'];
  if (po !== undefined) {
    const ok =
      Array.isArray(po) &&
      po.every(
        (o) => o !== null && typeof o === 'object' && typeof o.asset === 'string' && typeof o.chain === 'string',
      );
    if (!ok)
      problems.push('paymentOptions must be a list of { asset, chain }, e.g. [{ asset: "USDT", chain: "TRON" }]');
  }
  const expiresIn = options['expiresIn'];
  if (
    expiresIn !== undefined &&
    !(Number.isInteger(expiresIn) && (expiresIn as number) >= 300 && (expiresIn as number) <= 86400)
  )
    problems.push('expiresIn must be whole seconds from 300 to 86400');
  const tolerance = options['webhookTolerance'];
  if (tolerance !== undefined && !(Number.isInteger(tolerance) && (tolerance as number) > 0))
    problems.push('webhookTolerance must be a positive whole number of seconds');
  return problems;
}
