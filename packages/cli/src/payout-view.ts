import type { Destination, Payout } from '@hostpay/client';
import { renderPairs } from './table.js';

/**
 * How a payout and a destination read in a terminal, for the merchant and the operator commands
 * alike. Every figure is the server's exact text; nothing is recomputed here.
 */
export function describePayout(p: Payout & { merchantId?: string | undefined }): string {
  const pairs: [string, string][] = [['id', p.id]];
  if (p.merchantId !== undefined) pairs.push(['merchant', p.merchantId]);
  pairs.push(
    ['status', statusText(p)],
    ['amount', `${p.amount} ${p.asset}`],
    ['network fee', `${p.networkFee} ${p.asset}`],
    ['total', `${p.total} ${p.asset} (leaves wallet ${p.walletId})`],
    ['chain', `${p.chain} (${p.network})`],
    ['destination', p.destinationId === null ? p.destination : `${p.destination} (${p.destinationId})`],
  );
  if (p.reference !== null) pairs.push(['reference', p.reference]);
  if (p.refundOf !== null) pairs.push(['refund of', p.refundOf]);
  if (p.txHash !== null) pairs.push(['transaction', `${p.txHash} (${p.confirmations} confirmations)`]);
  pairs.push(['created', p.createdAt], ['updated', p.updatedAt]);
  const timeline = p.timeline
    .map((t) => `${t.at} ${t.status}${t.reason === null ? '' : ` (${t.reason})`} by ${t.by}`)
    .join('\n  ');
  return `${renderPairs(pairs)}\n\ntimeline:\n  ${timeline}`;
}

const statusText = (p: { status: string; reason: string | null }): string =>
  p.reason === null ? p.status : `${p.status} (${p.reason})`;

/** Columns of a payout list: the same for the merchant's list and the operators' queue. */
export const PAYOUT_COLUMNS = [
  { header: 'ID' },
  { header: 'STATUS' },
  { header: 'AMOUNT', align: 'decimal' as const },
  { header: 'FEE', align: 'decimal' as const },
  { header: 'ASSET' },
  { header: 'CHAIN' },
  { header: 'DESTINATION' },
  { header: 'CREATED' },
];
export const payoutRow = (p: Payout): string[] => [
  p.id,
  statusText(p),
  p.amount,
  p.networkFee,
  p.asset,
  p.chain,
  p.destination,
  p.createdAt,
];

export function describeDestination(d: Destination): string {
  return renderPairs([
    ['id', d.id],
    ['chain', d.chain],
    ['address', d.address],
    ['label', d.label ?? '-'],
    ['status', d.status],
    ['active from', d.activeFrom],
  ]);
}

export const DESTINATION_COLUMNS = [
  { header: 'ID' },
  { header: 'CHAIN' },
  { header: 'ADDRESS' },
  { header: 'LABEL' },
  { header: 'STATUS' },
  { header: 'ACTIVE FROM' },
];
export const destinationRow = (d: Destination): string[] => [
  d.id,
  d.chain,
  d.address,
  d.label ?? '-',
  d.status,
  d.activeFrom,
];
