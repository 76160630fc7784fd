import { renderPdf, type DocumentSpec, ltrText } from '../../documents/index.js';
import { formatAmount, formatDate } from '../../i18n/format.js';
import { ENGLISH, type Speech } from '../../i18n/messages.js';
import type { InvoiceDocument } from './public.js';
import { statusText } from './view.js';

interface Figures {
  number: string;
  status: string;
  currency: string;
  customer: { name: string | null; email: string | null };
  lineItems: {
    description: string;
    quantity: unknown;
    unitAmount: unknown;
    taxPercent: unknown;
    amount: unknown;
    tax: unknown;
  }[];
  subtotal: unknown;
  tax: unknown;
  total: unknown;
  amountPaid: unknown;
  amountDue: unknown;
  dueAt: string | null;
  finalizedAt: string;
  memo: string | null;
  url: string | null;
}

/** The invoice as the documents library lays it out, in `s`'s language: every figure exact, as the API writes it. */
export function invoiceSpec(d: InvoiceDocument, s: Speech = ENGLISH): DocumentSpec {
  const i = d.invoice as unknown as Figures;
  const m = (v: unknown) => formatAmount(s.lang, String(v), i.currency);
  const seller = d.seller;
  return {
    title: s.t('invoice.document'),
    lang: s.lang,
    banner: d.sandbox ? s.t('invoice.sandbox') : i.status === 'void' ? s.t('invoice.voidBanner') : null,
    seller: {
      name: seller.name,
      logo: seller.logoUrl,
      details: [
        seller.legalName,
        seller.address,
        seller.taxId === null ? null : s.t('invoice.taxId', { taxId: seller.taxId }),
        seller.supportEmail,
      ],
    },
    facts: [
      { label: s.t('invoice.invoiceNumber'), value: i.number },
      { label: s.t('invoice.statusLabel'), value: statusText(s, i.status) },
      { label: s.t('invoice.issued'), value: formatDate(s.lang, i.finalizedAt) },
      ...(i.dueAt === null ? [] : [{ label: s.t('invoice.due'), value: formatDate(s.lang, i.dueAt) }]),
    ],
    blocks: [
      ...(i.customer.name === null && i.customer.email === null
        ? []
        : [
            { kind: 'heading' as const, text: s.t('invoice.billTo') },
            {
              kind: 'text' as const,
              lines: [i.customer.name, i.customer.email].filter((x): x is string => x !== null),
            },
          ]),
      { kind: 'heading', text: s.t('invoice.items') },
      {
        kind: 'table',
        columns: [
          { label: s.t('invoice.description'), width: 3 },
          { label: s.t('invoice.quantity'), align: 'right' },
          { label: s.t('invoice.unitPrice'), align: 'right', width: 1.4 },
          { label: s.t('invoice.tax'), align: 'right' },
          { label: s.t('invoice.amount'), align: 'right', width: 1.4 },
        ],
        rows: i.lineItems.map((l) => [
          l.description,
          String(l.quantity),
          m(l.unitAmount),
          l.taxPercent === null ? '—' : `${s.t('invoice.taxRate', { percent: String(l.taxPercent) })} (${m(l.tax)})`,
          m(l.amount),
        ]),
      },
      {
        kind: 'totals',
        rows: [
          { label: s.t('invoice.subtotal'), value: m(i.subtotal) },
          { label: s.t('invoice.tax'), value: m(i.tax) },
          { label: s.t('invoice.total'), value: m(i.total), strong: true },
          { label: s.t('invoice.amountPaid'), value: m(i.amountPaid) },
          { label: s.t('invoice.amountDue'), value: m(i.amountDue), strong: true },
        ],
      },
      ...(i.memo === null ? [] : [{ kind: 'text' as const, lines: [i.memo] }]),
      ...(i.url === null || !d.payable
        ? []
        : [{ kind: 'links' as const, links: [{ label: s.t('invoice.payOnline'), url: i.url }] }]),
    ],
    footer: [s.t('invoice.footer', { number: ltrText(i.number), merchant: seller.name })],
    createdAt: new Date(i.finalizedAt),
  };
}

/** The invoice as a PDF (documents/: pdfkit, embedded fonts, nothing fetched), in `s`'s language (English by default). */
export const renderInvoicePdf = (d: InvoiceDocument, s: Speech = ENGLISH): Promise<Buffer> =>
  renderPdf(invoiceSpec(d, s));
