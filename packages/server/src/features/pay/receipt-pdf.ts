import { type DocumentBlock, type DocumentSpec, ltrText, renderPdf } from '../../documents/index.js';
import { ENGLISH, type Speech } from '../../i18n/messages.js';
import type { ReceiptView } from './receipt-view.js';
import {
  lineText,
  money,
  networkText,
  paidLabel,
  priced,
  rateText,
  receiptDate,
  referenceText,
  sandboxNote,
  sellerLines,
  taxed,
  taxText,
  totalLabel,
} from './receipt-text.js';

/** What was paid with: the option, its rate, each payment's transaction. */
function paidBlocks(r: ReceiptView, s: Speech): DocumentBlock[] {
  if (r.paidWith === null) return [];
  const amount = ltrText(money(r.paidWith.amount, r.paidWith.asset));
  return [
    { kind: 'heading', text: s.t('receipt.paidWith') },
    {
      kind: 'text',
      lines: [
        s.t('receipt.paidOn', { amount, network: ltrText(networkText(r.paidWith)) }),
        s.t('receipt.rate', { rate: ltrText(rateText(r) ?? '') }),
      ],
    },
    {
      kind: 'table',
      columns: [
        { label: s.t('receipt.amount'), width: 2 },
        { label: s.t('receipt.chain') },
        { label: s.t('receipt.transaction'), width: 7 },
      ],
      rows: r.payments.map((p) => [money(p.amount, p.asset), p.chain, { text: p.txHash, url: p.explorerUrl }]),
    },
  ];
}

/** The receipt as a document (the same words and figures as the page), for `renderPdf`, in `s`'s language. */
export function receiptDocument(
  r: ReceiptView,
  sandbox: boolean,
  receiptUrl: string,
  s: Speech = ENGLISH,
): DocumentSpec {
  const tax = taxed(r);
  const reference = referenceText(r, s);
  const amount = (v: string) => priced(r, v, s);
  const blocks: DocumentBlock[] = [
    ...(reference === null ? [] : [{ kind: 'text' as const, lines: [`${s.t('receipt.paymentFor')}: ${reference}`] }]),
    { kind: 'heading', text: s.t('receipt.items') },
    {
      kind: 'table',
      columns: [
        { label: s.t('receipt.item'), width: 4 },
        { label: s.t('receipt.quantity'), align: 'right' },
        { label: s.t('receipt.unitPrice'), align: 'right', width: 2 },
        ...(tax ? [{ label: s.t('receipt.tax'), align: 'right' as const, width: 2.5 }] : []),
        { label: s.t('receipt.amount'), align: 'right', width: 2 },
      ],
      rows: r.items.lines.map((l) => [
        lineText(l, s),
        l.quantity,
        amount(l.unitAmount),
        ...(tax ? [taxText(l, r.currency, s, r.fiatCurrency)] : []),
        amount(l.amount),
      ]),
    },
    {
      kind: 'totals',
      rows: [
        ...r.items.totals.map((t) => ({ label: totalLabel(t, s), value: amount(t.amount) })),
        { label: paidLabel(r, s), value: amount(r.amount), strong: true },
      ],
    },
    ...paidBlocks(r, s),
  ];
  if (r.refunds.length > 0)
    blocks.push(
      { kind: 'heading', text: s.t('receipt.refunds') },
      {
        kind: 'table',
        columns: [
          { label: s.t('receipt.refunded'), width: 2 },
          { label: s.t('receipt.date'), width: 2 },
          { label: s.t('receipt.transaction'), width: 6 },
        ],
        rows: r.refunds.map((f) => [
          money(f.amount, f.asset),
          receiptDate(f.at, s),
          { text: f.txHash, url: f.explorerUrl },
        ]),
      },
    );
  blocks.push({
    kind: 'links',
    links: [{ label: s.t('receipt.online', { url: ltrText(receiptUrl) }), url: receiptUrl }],
  });
  return {
    title: s.t('receipt.title'),
    lang: s.lang,
    banner: sandbox ? sandboxNote(s) : null,
    seller: { name: r.merchantName, logo: r.logoUrl, details: sellerLines(r, s) },
    facts: [
      { label: s.t('receipt.number'), value: r.receiptNumber },
      { label: s.t('receipt.datePaid'), value: receiptDate(r.paidAt, s) },
    ],
    blocks,
    footer: [s.t('receipt.footer', { merchant: r.merchantName })],
    createdAt: new Date(r.paidAt),
  };
}

export const receiptPdf = (r: ReceiptView, sandbox: boolean, receiptUrl: string, s: Speech = ENGLISH) =>
  renderPdf(receiptDocument(r, sandbox, receiptUrl, s));
