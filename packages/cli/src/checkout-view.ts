import type { Checkout } from '@hostpay/client';
import { renderPairs, renderTable } from './table.js';

/**
 * How a checkout reads in a terminal, for the merchant and the operator commands alike. Every
 * figure is the server's exact text; nothing is recomputed here.
 */
export function describeCheckout(c: Checkout): string {
  const status = c.reason === null ? c.status : `${c.status} (${c.reason})`;
  const pairs: [string, string][] = [
    ['id', c.id],
    ['url', c.url],
    ['status', status],
    ['amount', `${c.amount} ${c.currency}`],
    ['fee', `${c.fee.fee} ${c.fee.currency}`],
  ];
  if (c.orderId !== null) pairs.push(['order id', c.orderId]);
  if (c.description !== null) pairs.push(['description', c.description]);
  for (const [k, v] of Object.entries(c.metadata)) pairs.push([`metadata ${k}`, v]);
  pairs.push(['expires', c.expiresAt], ['created', c.createdAt]);
  const parts = [renderPairs(pairs)];
  if (c.paymentOptions.length > 0) parts.push(optionsTable(c));
  if (c.payments.length > 0) parts.push(paymentsTable(c));
  parts.push(
    `timeline: ${c.timeline.map((t) => (t.reason === null ? t.status : `${t.status} (${t.reason})`)).join(' → ')}`,
  );
  return parts.join('\n\n');
}

function optionsTable(c: Checkout): string {
  return renderTable(
    [
      { header: 'ASSET' },
      { header: 'CHAIN' },
      { header: 'AMOUNT DUE', align: 'decimal' },
      { header: 'RECEIVED', align: 'decimal' },
      { header: 'NET', align: 'decimal' },
      { header: 'ADDRESS' },
    ],
    c.paymentOptions.map((o) => [o.asset, o.chain, o.amountDue, o.received, o.netAmount, o.address]),
  );
}

function paymentsTable(c: Checkout): string {
  return renderTable(
    [
      { header: 'PAYMENT' },
      { header: 'ASSET' },
      { header: 'CHAIN' },
      { header: 'AMOUNT', align: 'decimal' },
      { header: 'CONF' },
      { header: 'STATE' },
    ],
    c.payments.map((p) => [
      p.id,
      p.asset,
      p.chain,
      p.amount,
      String(p.confirmations),
      p.retracted ? 'retracted' : p.confirmed ? 'confirmed' : 'pending',
    ]),
  );
}

/** Columns of a checkout list: the same for the merchant's list and the operators' review list. */
export const CHECKOUT_COLUMNS = [
  { header: 'ID' },
  { header: 'STATUS' },
  { header: 'AMOUNT', align: 'decimal' as const },
  { header: 'CURRENCY' },
  { header: 'ORDER' },
  { header: 'CREATED' },
];
export const checkoutRow = (c: Checkout): string[] => [
  c.id,
  c.reason === null ? c.status : `${c.status} (${c.reason})`,
  c.amount,
  c.currency,
  c.orderId ?? '-',
  c.createdAt,
];
