import { decimalText, jsonDecimal, type PaymentLinkStatus } from '@hostpay/protocol';
import type { LinkCounts } from './queries.js';
import type { PaymentLinkTable } from './tables.js';

const num = (text: string | null) => (text === null ? null : jsonDecimal(decimalText(text)));

/** The public page's path of a link. */
export const linkPath = (slug: string) => `/l/${slug}`;

/**
 * Why a link makes no checkout now, or null. `taken`: settled plus live checkouts (the page, the
 * POST and the object's `status` judge availability by these, so no payer starts a checkout the
 * link cannot honour); `uses` counts settled ones only.
 */
export function unavailable(
  row: PaymentLinkTable,
  taken: number,
  nowMs: number,
): Exclude<PaymentLinkStatus, 'active'> | null {
  if (row.active !== 1) return 'inactive';
  if (row.expires_at !== null && Date.parse(row.expires_at) <= nowMs) return 'expired';
  if (row.max_uses !== null && taken >= row.max_uses) return 'used_up';
  return null;
}

/** The wire object `PaymentLink` (exact decimals as number literals through writeExactJson). */
export function linkView(row: PaymentLinkTable, counts: LinkCounts, publicBaseUrl: string, nowMs: number) {
  const url = `${publicBaseUrl}${linkPath(row.slug)}`;
  const items =
    row.line_items === null
      ? null
      : (JSON.parse(row.line_items) as { name: string; quantity: number; unitAmount: string }[]);
  return {
    id: row.id,
    slug: row.slug,
    url,
    name: row.name,
    description: row.description,
    currency: row.currency,
    amount: num(row.amount),
    minAmount: num(row.min_amount),
    maxAmount: num(row.max_amount),
    lineItems:
      items === null
        ? null
        : items.map((i) => ({ name: i.name, quantity: i.quantity, unitAmount: jsonDecimal(i.unitAmount) })),
    paymentOptions:
      row.payment_options === null ? null : (JSON.parse(row.payment_options) as { asset: string; chain: string }[]),
    collectEmail: row.collect_email,
    successUrl: row.success_url,
    // The default is the link's own page (its checkouts return there); shown as such.
    cancelUrl: row.cancel_url ?? url,
    maxUses: row.max_uses,
    uses: counts.uses,
    expiresAt: row.expires_at,
    active: row.active === 1,
    status: unavailable(row, counts.taken, nowMs) ?? 'active',
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
export type LinkView = ReturnType<typeof linkView>;
