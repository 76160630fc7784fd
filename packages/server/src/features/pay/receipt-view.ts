import type { Brand } from '../self-service/look.js';
import { Decimal } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';
import type { CheckoutService } from '../checkouts/service.js';
import { explorerLink, paidOption, type PayView } from './pay-view.js';
import { type ReceiptItems, type ReceiptLinesSource, singleLine } from './receipt-lines.js';
import { pageFacts } from './queries.js';
import { refundFacts, sellerFacts } from './receipt-queries.js';

/** A payment on the receipt: what arrived, linked to the chain's explorer when it has a template. */
export interface ReceiptPayment {
  asset: string;
  chain: string;
  amount: string;
  txHash: string;
  explorerUrl: string | null;
}

/**
 * Everything a receipt shows, and nothing else: never the fee, metadata, order id or the
 * payer's email (spec/commerce.md, "Receipts").
 */
export interface ReceiptView {
  checkoutId: string;
  receiptNumber: string;
  /** `<public base>/pay/{id}/receipt`. */
  receiptUrl: string;
  /** ISO time the checkout settled. */
  paidAt: string;
  merchantName: string;
  logoUrl: string | null;
  /** The merchant's colours and the payers' default language (settings), as the payment page takes them. */
  brand: Brand | null;
  language: string | null;
  /** Legal name, address, tax id, support email (each when set). */
  seller: { legalName: string | null; address: string | null; taxId: string | null; supportEmail: string | null };
  description: string | null;
  currency: string;
  fiatCurrency: boolean;
  amount: string;
  /** What was bought (a link's or an invoice's items), the totals under them, what the payment settles. */
  items: ReceiptItems;
  /** What was paid with: the option the money went to, and its rate (asset per 1 unit of currency). */
  paidWith: { asset: string; chain: string; network: string; amount: string; rate: string } | null;
  payments: ReceiptPayment[];
  /** Completed refunds: sent back to the payer. */
  refunds: (ReceiptPayment & { at: string })[];
}

/** The receipts of checkouts, by id (the `pay` provision's `receipt`). */
export interface ReceiptSource {
  /** The receipt of checkout `id`, or undefined when it has none (unknown, not settled). */
  receipt(id: string): Promise<ReceiptView | undefined>;
}

type CheckoutRead = Awaited<ReturnType<CheckoutService['get']>>;

/**
 * The receipt of checkout `id`, or undefined while it has none (unknown id, not settled: the
 * routes answer 404). `page` is the payer's view the payment page shows (same checks).
 */
export async function receiptOf(
  db: Db,
  checkouts: CheckoutService,
  page: PayView | undefined,
  lineSources: () => readonly ReceiptLinesSource[],
): Promise<ReceiptView | undefined> {
  if (page === undefined || page.status !== 'settled') return undefined;
  const seller = await sellerFacts(db, page.id);
  if (seller === undefined) return undefined;
  // A checkout settled before receipt numbers existed takes its number on its receipt's first read.
  const receiptNumber = seller.receiptNumber ?? (await checkouts.receiptNumberFor(page.id));
  if (receiptNumber === null) return undefined;
  const c: CheckoutRead = await checkouts.get(undefined, page.id);
  const settled = [...c.timeline].reverse().find((t) => t.status === 'settled');
  const option = paidOption(page);
  const quoted = c.paymentOptions.find((o) => o.asset === option?.asset && o.chain === option?.chain);
  const refunds = await refundFacts(db, page.id);
  const explorers = (await pageFacts(db, page.id))?.explorers ?? new Map<string, string>();
  return {
    checkoutId: page.id,
    receiptNumber,
    receiptUrl: c.receiptUrl ?? `/pay/${page.id}/receipt`,
    paidAt: settled?.at ?? c.updatedAt,
    merchantName: page.merchantName,
    logoUrl: page.logoUrl,
    brand: page.brand ?? null,
    language: page.language ?? null,
    seller: {
      legalName: seller.legalName,
      address: seller.address,
      taxId: seller.taxId,
      supportEmail: seller.supportEmail,
    },
    description: page.description,
    currency: page.currency,
    fiatCurrency: page.fiatCurrency,
    amount: page.amount,
    items: await itemsOf(db, lineSources(), {
      id: page.id,
      merchantId: seller.merchantId,
      paymentLinkId: seller.paymentLinkId,
      invoiceId: seller.invoiceId,
      currency: page.currency,
      amount: page.amount,
      description: page.description,
    }),
    paidWith:
      option === undefined || quoted === undefined
        ? null
        : {
            asset: option.asset,
            chain: option.chain,
            network: option.network,
            amount: option.received,
            rate: new Decimal(String(quoted.rate)).toFixed(),
          },
    payments: page.payments,
    refunds: refunds.map((r) => ({
      asset: r.asset,
      chain: r.chain,
      amount: r.amount,
      txHash: r.txHash ?? '',
      at: r.at,
      explorerUrl: r.txHash === null ? null : explorerLink(explorers.get(r.chain), r.txHash),
    })),
  };
}

async function itemsOf(
  db: Db,
  sources: readonly ReceiptLinesSource[],
  c: Parameters<ReceiptLinesSource>[1],
): Promise<ReceiptItems> {
  for (const source of sources) {
    const items = await source(db, c);
    if (items !== null) return items;
  }
  // No description: an empty one, which the receipt says as `Payment` in the payer's language.
  return {
    lines: [singleLine(c.description ?? '', c.amount)],
    totals: [],
    paidLabel: 'Total',
    paid: 'total',
    reference: null,
  };
}
