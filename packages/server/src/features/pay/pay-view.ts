import type { Brand } from '../self-service/look.js';
import { Decimal } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { Db } from '../../store/store.js';
import type { CheckoutService } from '../checkouts/service.js';
import { paymentUri, type UriInput, walletUri } from './payment-uri.js';
import { pageFacts } from './queries.js';

/** The statuses in which the page asks for money. */
export const PAYABLE = new Set(['open', 'underpaid']);
/** The statuses that never change again: the page stops watching. */
export const FINAL = new Set(['settled', 'invalid']);

export interface PayOption {
  /** `ASSET-CHAIN`, the page's `?option=` value. */
  key: string;
  asset: string;
  chain: string;
  network: string;
  address: string;
  amountDue: string;
  received: string;
  remaining: string;
  /** Fewest confirmations among the live payments to this option (0 when none). */
  confirmations: number;
  confirmationsRequired: number;
  /** BIP-21 / EIP-681 / plain address for the remaining amount: what the QR code holds. */
  paymentUri: string;
  /** The "Open in a wallet app" link: a BIP-21 / EIP-681 URI, null where the chain has no scheme (TRON). */
  walletUri: string | null;
}

/** A payment the page lists once it has arrived: what the payer can check on the chain. */
export interface PayPayment {
  asset: string;
  chain: string;
  amount: string;
  txHash: string;
  /** The operator's block-explorer page of this transaction, or null (none configured for the chain). */
  explorerUrl: string | null;
}

/** Everything the payer may see of a checkout, and nothing else (no metadata, order id, fees, rates). */
export interface PayView {
  id: string;
  status: string;
  reason: string | null;
  merchantName: string;
  /** The merchant's logo: an https URL or a data:image URL (merchants/settings.ts), or null. */
  logoUrl: string | null;
  /** The merchant's colours for the layout (null: the default palette), and its default language. */
  brand?: Brand | null;
  language?: string | null;
  description: string | null;
  amount: string;
  currency: string;
  /** The currency is fiat: the page writes the amount with its minor units in the payer's locale. */
  fiatCurrency: boolean;
  expiresAt: string;
  successUrl: string | null;
  cancelUrl: string | null;
  options: PayOption[];
  /** Live (not retracted) payments, oldest first. */
  payments: PayPayment[];
  /** Set once settled: the receipt's number and page (`<public base>/pay/{id}/receipt`). */
  receiptNumber: string | null;
  receiptUrl: string | null;
}

export const ID_RE = /^chk_[0-9a-z]{1,64}$/;
const OPTION_KEY_RE = /^[A-Z0-9]{1,12}-[A-Z0-9]{1,12}$/;

export interface PaySource {
  /** The payer's view of checkout `id`, or undefined for an id that is malformed or unknown. */
  load(id: string): Promise<PayView | undefined>;
}

/**
 * The page reads the checkout through the same service the merchant API uses (one query path),
 * plus the merchant's name and each asset's precision and chain family from its own small query.
 */
export function paySource(db: Db, checkouts: CheckoutService): PaySource {
  return {
    async load(id) {
      if (!ID_RE.test(id)) return undefined;
      let c: Awaited<ReturnType<CheckoutService['get']>>;
      try {
        c = await checkouts.get(undefined, id);
        // Settled before receipt numbers existed (migration 33): numbered on its first read here
        // as on its receipt's, so its Paid screen and /status link the receipt too.
        if (c.status === 'settled' && c.receiptNumber == null) {
          await checkouts.receiptNumberFor(id);
          c = await checkouts.get(undefined, id);
        }
      } catch (err) {
        if (err instanceof HostpayError && err.code === 'NOT_FOUND') return undefined;
        throw err;
      }
      const facts = await pageFacts(db, id);
      if (facts === undefined) return undefined;
      const options = c.paymentOptions.map((o): PayOption => {
        const fact = facts.options.get(`${o.asset}/${o.chain}`) ?? {
          decimals: 18,
          family: 'other',
          networkType: 'mainnet',
        };
        const live = c.payments.filter((p) => !p.retracted && p.chain === o.chain && p.address === o.address);
        const remaining = String(o.remaining);
        return {
          key: `${o.asset}-${o.chain}`,
          asset: o.asset,
          chain: o.chain,
          network: o.network,
          address: o.address,
          amountDue: String(o.amountDue),
          received: String(o.received),
          remaining,
          confirmations: live.length === 0 ? 0 : Math.min(...live.map((p) => p.confirmations)),
          confirmationsRequired: o.confirmationsRequired,
          ...uris({
            family: fact.family,
            networkType: fact.networkType,
            chain: o.chain,
            address: o.address,
            tokenContract: o.tokenContract,
            decimals: fact.decimals,
            amount: remaining,
          }),
        };
      });
      const payments = c.payments
        .filter((p) => !p.retracted)
        .map(
          (p): PayPayment => ({
            asset: p.asset,
            chain: p.chain,
            amount: String(p.amount),
            txHash: p.txHash,
            explorerUrl: explorerLink(facts.explorers.get(p.chain), p.txHash),
          }),
        );
      return {
        id: c.id,
        status: c.status,
        reason: c.reason,
        merchantName: facts.merchantName,
        logoUrl: facts.logoUrl,
        brand: facts.brand,
        language: facts.language,
        description: c.description,
        amount: String(c.amount),
        currency: c.currency,
        fiatCurrency: facts.fiatCurrency,
        expiresAt: c.expiresAt,
        successUrl: c.successUrl,
        cancelUrl: c.cancelUrl,
        options,
        payments,
        receiptNumber: c.receiptNumber ?? null,
        receiptUrl: c.receiptUrl ?? null,
      };
    },
  };
}

const uris = (input: UriInput) => ({ paymentUri: paymentUri(input), walletUri: walletUri(input) });

/** The explorer template with the transaction hash in place of `{tx}` (URI-encoded), or null without a template. */
export function explorerLink(template: string | undefined, txHash: string): string | null {
  return template === undefined ? null : template.replace('{tx}', encodeURIComponent(txHash));
}

/** The option the page shows: the one asked for, else the one money went to, else the first. */
export function chosenOption(view: PayView, asked: string | undefined): PayOption | undefined {
  const wanted =
    asked !== undefined && OPTION_KEY_RE.test(asked) ? view.options.find((o) => o.key === asked) : undefined;
  return wanted ?? paidOption(view) ?? view.options[0];
}

/** The option that has received the most relative to what it asks (the one a payer is paying). */
export function paidOption(view: PayView): PayOption | undefined {
  const paid = view.options.filter((o) => new Decimal(o.received).gt(0));
  return paid.sort((a, b) => new Decimal(b.received).div(b.amountDue).cmp(new Decimal(a.received).div(a.amountDue)))[0];
}
