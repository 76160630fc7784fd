import { Decimal, decimalText, jsonDecimal, parseExactJson, type JsonDecimal } from '@hostpay/protocol';
import { optionTotals } from './decide.js';
import { paymentFacts } from './engine-facts.js';
import type { LoadedCheckout, OptionRow, TransferRow } from './queries.js';

const num = (text: string | Decimal): JsonDecimal => jsonDecimal(decimalText(text));

/** The stored fee preview (exact JSON text) back as an object whose numbers stay exact. */
export function feeObject(text: string): unknown {
  return parseExactJson(text, (literal) => jsonDecimal(literal));
}

export function paymentView(t: TransferRow, option: OptionRow | undefined) {
  return {
    id: t.id,
    chain: t.chain_symbol,
    asset: t.asset_symbol,
    txHash: t.tx_hash,
    index: t.log_index,
    address: t.to_address,
    amount: num(t.amount),
    confirmations: t.confirmations,
    confirmed: option !== undefined && t.confirmations >= option.confirmations_required,
    retracted: t.retracted === 1,
    blockTime: t.block_time,
    detectedAt: t.detected_at,
  };
}

/**
 * The checkout object of the contract ("Checkout object"), ready for writeExactJson. `fee` is the
 * stored fee preview read back, unless the caller still holds the object it was written from
 * (a create: parsing it again was 3 % of the serving thread's CPU).
 */
export function checkoutView(c: LoadedCheckout, publicBaseUrl: string, fee: unknown = feeObject(c.row.fee)) {
  const { row } = c;
  const facts = paymentFacts(c);
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    amount: num(row.amount),
    currency: row.currency,
    fee,
    orderId: row.order_id,
    description: row.description,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    url: `${publicBaseUrl}/pay/${row.id}`,
    // A payment link's successUrl may hold {CHECKOUT_ID} (spec/commerce.md); a URL parser escapes it in a path.
    successUrl: row.success_url?.replaceAll(/\{CHECKOUT_ID\}|%7BCHECKOUT_ID%7D/g, row.id) ?? null,
    cancelUrl: row.cancel_url,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    paymentOptions: c.options.map((o) => {
      const totals = optionTotals(
        { id: o.id, amountDue: new Decimal(o.amount_due), confirmationsRequired: o.confirmations_required },
        facts,
      );
      return {
        asset: o.asset_symbol,
        chain: o.chain_symbol,
        network: o.network_name,
        tokenContract: o.token_contract,
        address: o.address,
        amountDue: num(o.amount_due),
        rate: num(o.rate),
        rateSource: o.rate_source,
        rateAt: o.rate_at,
        rateSpreadPercent: o.rate_spread_percent === null ? null : num(o.rate_spread_percent),
        received: num(totals.received),
        remaining: num(Decimal.max(new Decimal(o.amount_due).minus(totals.received), 0)),
        fee: num(o.fee_in_asset),
        netAmount: num(o.net_amount),
        confirmationsRequired: o.confirmations_required,
      };
    }),
    payments: c.transfers.map((t) =>
      paymentView(
        t,
        c.options.find((o) => o.id === t.option_id),
      ),
    ),
    timeline: c.timeline.map((t) => ({ status: t.status, reason: t.reason, at: t.at })),
    paymentLinkId: row.payment_link_id ?? null,
    invoiceId: row.invoice_id ?? null,
    customerEmail: row.customer_email ?? null,
    receiptNumber: row.receipt_number ?? null,
    receiptUrl: row.receipt_number ? `${publicBaseUrl}/pay/${row.id}/receipt` : null,
  };
}
export type CheckoutView = ReturnType<typeof checkoutView>;
