import type { Invoice, PaymentLink } from '@hostpay/client';
import { renderPairs, renderTable } from './table.js';

/**
 * How a payment link and an invoice read in a terminal. Every figure is the server's exact text;
 * nothing is recomputed here.
 */

/** A link's price: fixed, or what the payer may type. */
export function linkPrice(l: PaymentLink): string {
  if (l.amount !== null) return `${l.amount} ${l.currency}`;
  const range =
    l.minAmount === null && l.maxAmount === null
      ? 'any amount'
      : l.maxAmount === null
        ? `at least ${l.minAmount}`
        : l.minAmount === null
          ? `at most ${l.maxAmount}`
          : `${l.minAmount} to ${l.maxAmount}`;
  return `the payer types it: ${range} ${l.currency}`;
}

const usesText = (l: PaymentLink): string => (l.maxUses === null ? `${l.uses}` : `${l.uses} of ${l.maxUses}`);

export function describeLink(l: PaymentLink): string {
  const pairs: [string, string][] = [
    ['id', l.id],
    ['url', l.url],
    ['name', l.name],
    ['status', l.status],
    ['price', linkPrice(l)],
  ];
  if (l.description !== null) pairs.push(['description', l.description]);
  for (const item of l.lineItems ?? [])
    pairs.push(['line', `${item.quantity} × ${item.name} at ${item.unitAmount} ${l.currency}`]);
  if (l.paymentOptions !== null)
    pairs.push(['pay with', l.paymentOptions.map((o) => `${o.asset}/${o.chain}`).join(', ')]);
  pairs.push(
    ['collect email', l.collectEmail],
    ['uses', `${usesText(l)} settled${l.maxUses === null ? ' (no limit)' : ''}`],
    ['expires', l.expiresAt ?? 'never'],
  );
  if (l.successUrl !== null) pairs.push(['success url', l.successUrl]);
  if (l.cancelUrl !== null) pairs.push(['cancel url', l.cancelUrl]);
  for (const [k, v] of Object.entries(l.metadata)) pairs.push([`metadata ${k}`, v]);
  pairs.push(['created', l.createdAt], ['updated', l.updatedAt]);
  return renderPairs(pairs);
}

export const LINK_COLUMNS = [
  { header: 'ID' },
  { header: 'STATUS' },
  { header: 'PRICE', align: 'decimal' as const },
  { header: 'CURRENCY' },
  { header: 'USES' },
  { header: 'NAME' },
  { header: 'CREATED' },
];
export const linkRow = (l: PaymentLink): string[] => [
  l.id,
  l.status,
  l.amount ?? 'payer',
  l.currency,
  usesText(l),
  l.name,
  l.createdAt,
];

const customerText = (i: Invoice): string => {
  const { name, email } = i.customer;
  if (name === null && email === null) return '-';
  if (name === null) return email ?? '-';
  return email === null ? name : `${name} <${email}>`;
};

export function describeInvoice(i: Invoice): string {
  const pairs: [string, string][] = [
    ['id', i.id],
    ['number', i.number ?? '- (a draft: finalize it for a number)'],
    ['status', i.status],
    ['customer', customerText(i)],
  ];
  if (i.url !== null) pairs.push(['url', i.url]);
  pairs.push(['due', i.dueAt ?? '-']);
  if (i.memo !== null) pairs.push(['memo', i.memo]);
  for (const [k, v] of Object.entries(i.metadata)) pairs.push([`metadata ${k}`, v]);
  const money = renderPairs([
    ['subtotal', `${i.subtotal} ${i.currency}`],
    ['tax', `${i.tax} ${i.currency}`],
    ['total', `${i.total} ${i.currency}`],
    ['paid', `${i.amountPaid} ${i.currency}`],
    ['amount due', `${i.amountDue} ${i.currency}`],
  ]);
  const times: [string, string][] = [['created', i.createdAt]];
  if (i.finalizedAt !== null) times.push(['finalized', i.finalizedAt]);
  if (i.sentAt !== null) times.push(['sent', i.sentAt]);
  if (i.paidAt !== null) times.push(['paid at', i.paidAt]);
  if (i.checkoutIds.length > 0) times.push(['checkouts', i.checkoutIds.join(', ')]);
  const lines =
    i.lineItems.length === 0
      ? 'no lines yet: add them with hostpay invoice update ID --item "DESCRIPTION:QTY:PRICE"'
      : renderTable(
          [
            { header: 'DESCRIPTION' },
            { header: 'QTY', align: 'decimal' },
            { header: 'UNIT PRICE', align: 'decimal' },
            { header: 'TAX %', align: 'decimal' },
            { header: 'AMOUNT', align: 'decimal' },
            { header: 'TAX', align: 'decimal' },
          ],
          i.lineItems.map((l) => [l.description, l.quantity, l.unitAmount, l.taxPercent ?? '-', l.amount, l.tax]),
        );
  return [renderPairs(pairs), lines, money, renderPairs(times)].join('\n\n');
}

export const INVOICE_COLUMNS = [
  { header: 'ID' },
  { header: 'NUMBER' },
  { header: 'STATUS' },
  { header: 'TOTAL', align: 'decimal' as const },
  { header: 'DUE', align: 'decimal' as const },
  { header: 'CURRENCY' },
  { header: 'CUSTOMER' },
  { header: 'CREATED' },
];
export const invoiceRow = (i: Invoice): string[] => [
  i.id,
  i.number ?? '-',
  i.status,
  i.total,
  i.amountDue,
  i.currency,
  customerText(i),
  i.createdAt,
];
