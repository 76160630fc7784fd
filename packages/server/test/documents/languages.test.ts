import { describe, expect, it } from 'vitest';
import { receiptDocument } from '../../src/features/pay/receipt-pdf.js';
import type { ReceiptView } from '../../src/features/pay/receipt-view.js';
import { renderInvoicePdf } from '../../src/features/invoices/pdf.js';
import type { InvoiceDocument } from '../../src/features/invoices/public.js';
import { renderPdf } from '../../src/documents/index.js';
import { LANG_CODES, type Lang } from '../../src/i18n/languages.js';
import { speechOf } from '../../src/i18n/messages.js';
import { flat, pdfText } from './pdf-text.js';

const TX = `0x${'ab'.repeat(32)}`;

/** A settled receipt of an invoice's part payment with a taxed line and a refund: every message a receipt PDF has. */
export const RECEIPT: ReceiptView = {
  checkoutId: 'chk_lang',
  receiptNumber: 'RCPT-000042',
  receiptUrl: 'https://pay.example/pay/chk_lang/receipt',
  paidAt: '2026-11-29T10:05:00.000Z',
  merchantName: 'Lavka',
  logoUrl: null,
  brand: null,
  language: null,
  seller: {
    legalName: 'Lavka GmbH',
    address: 'Hauptstr. 1\n10115 Berlin',
    taxId: 'DE123456789',
    supportEmail: 'help@lavka.example',
  },
  description: null,
  currency: 'EUR',
  fiatCurrency: true,
  amount: '25.50',
  items: {
    lines: [
      {
        description: 'Book',
        quantity: '2',
        unitAmount: '10.00',
        amount: '20.00',
        tax: { percent: '19', amount: '3.80' },
      },
      { description: '', quantity: '1', unitAmount: '5.50', amount: '5.50', tax: null },
    ],
    totals: [
      { label: 'Subtotal', kind: 'subtotal', amount: '25.50' },
      { label: 'Tax', kind: 'tax', amount: '3.80' },
      { label: 'Invoice total', kind: 'invoiceTotal', amount: '29.30' },
    ],
    paidLabel: 'This payment',
    paid: 'part',
    reference: 'Invoice INV-000012 (part payment)',
    invoice: { number: 'INV-000012', partOf: '29.30' },
  },
  paidWith: { asset: 'USDT', chain: 'ethereum', network: 'ethereum', amount: '27.62', rate: '1.0832' },
  payments: [{ asset: 'USDT', chain: 'ethereum', amount: '27.62', txHash: TX, explorerUrl: null }],
  refunds: [
    { asset: 'USDT', chain: 'ethereum', amount: '1.00', txHash: TX, explorerUrl: null, at: '2026-11-30T08:00:00.000Z' },
  ],
};

/** An open invoice, partly paid, with a due date, a customer and a taxed line. */
export const INVOICE = {
  invoice: {
    number: 'INV-000012',
    status: 'partially_paid',
    currency: 'EUR',
    customer: { name: 'Ada', email: 'ada@example.com' },
    lineItems: [
      { description: 'Book', quantity: 2, unitAmount: '10.00', taxPercent: 19, amount: '20.00', tax: '3.80' },
    ],
    subtotal: '20.00',
    tax: '3.80',
    total: '23.80',
    amountPaid: '10.00',
    amountDue: '13.80',
    dueAt: '2026-12-15T00:00:00.000Z',
    finalizedAt: '2026-11-29T09:00:00.000Z',
    memo: null,
    url: 'https://pay.example/i/tok',
  },
  row: { number: 'INV-000012' },
  seller: {
    name: 'Lavka',
    legalName: 'Lavka GmbH',
    address: 'Hauptstr. 1',
    taxId: 'DE123456789',
    supportEmail: 'help@lavka.example',
    logoUrl: null,
  },
  sandbox: false,
  payable: true,
} as unknown as InvoiceDocument;

// Each document is rendered once and read by several tests.
const rendered = new Map<string, Promise<Buffer>>();
const once = (key: string, make: () => Promise<Buffer>) => {
  if (!rendered.has(key)) rendered.set(key, make());
  return rendered.get(key)!;
};
const receiptPdf = (lang: Lang) =>
  once(`r${lang}`, () => renderPdf(receiptDocument(RECEIPT, false, RECEIPT.receiptUrl, speechOf(lang))));
const invoicePdf = (lang: Lang) => once(`i${lang}`, () => renderInvoicePdf(INVOICE, speechOf(lang)));
/**
 * pdftotext's words, joined by single spaces, without the bidi marks it puts around right-to-left
 * lines; without -layout, so a right-to-left line comes out in reading order.
 */
const words = (pdf: Buffer) => flat(pdfText(pdf, false).replace(/[\u202a-\u202e]/g, ''));
/** A hash a table cell wrapped over two lines, read back whole. */
const unwrapped = (text: string) => text.replace(/ /g, '');
/** Rendering Chinese and Japanese reads their fonts (1.4-1.6 MB) on first use: slow on a busy machine. */
const SLOW = 180_000;

describe('documents in every language', () => {
  for (const lang of LANG_CODES)
    it(
      `${lang}: the invoice and the receipt PDFs carry their title, labels and figures as text`,
      async () => {
        const s = speechOf(lang);
        const inv = words(await invoicePdf(lang));
        expect(inv).toContain(s.t('invoice.document'));
        expect(inv).toContain(s.t('invoice.invoiceNumber'));
        expect(inv).toContain('INV-000012');
        const rec = words(await receiptPdf(lang));
        expect(rec).toContain(s.t('receipt.title'));
        // pdftotext reads a lam-alef ligature's letters back reversed: Arabic labels are checked word by word below.
        if (lang !== 'ar') expect(rec).toContain(s.t('receipt.number'));
        expect(rec).toContain('RCPT-000042');
        expect(unwrapped(rec)).toContain(TX);
      },
      SLOW,
    );

  it('ja and zh-CN: Chinese and Japanese words are real text, set in Noto Sans JP / SC', async () => {
    const ja = words(await invoicePdf('ja'));
    for (const w of ['請求書', '請求書番号', '支払期日', '単価', '小計', '合計', '請求残高'])
      expect(ja, w).toContain(w);
    const jaReceipt = words(await receiptPdf('ja'));
    for (const w of ['領収書', '領収書番号', '支払日', '今回のお支払い', '返金']) expect(jaReceipt, w).toContain(w);
    const zh = words(await invoicePdf('zh-CN'));
    for (const w of ['账单', '账单编号', '付款截止日期', '单价', '小计', '总计', '应付金额'])
      expect(zh, w).toContain(w);
    const zhReceipt = words(await receiptPdf('zh-CN'));
    for (const w of ['收据', '收据编号', '付款日期', '本次付款', '退款']) expect(zhReceipt, w).toContain(w);
  });

  it(
    'ru: Cyrillic labels and the amounts formatted for Russian',
    async () => {
      const ru = words(await invoicePdf('ru'));
      for (const w of ['Счёт', 'Номер счёта', 'Оплатить до', 'Промежуточный итог', 'К оплате', '13,80'])
        expect(ru, w).toContain(w);
      const rec = words(await receiptPdf('ru'));
      for (const w of ['Квитанция', 'Номер квитанции', 'Этот платёж', 'Возвраты']) expect(rec, w).toContain(w);
    },
    SLOW,
  );

  it('ar: Arabic words come out whole, letters in reading order, the hash left to right', async () => {
    const inv = words(await invoicePdf('ar'));
    for (const w of ['فاتورة', 'رقم الفاتورة', 'الحالة', 'المجموع الفرعي', 'المبلغ المستحق'])
      expect(inv, w).toContain(w);
    const rec = words(await receiptPdf('ar'));
    for (const w of ['إيصال', 'هذه الدفعة', 'المبالغ المستردة', 'طريقة الدفع']) expect(rec, w).toContain(w);
    expect(unwrapped(rec)).toContain(TX);
  });

  it(
    'ar: the page is mirrored: the title stands on the left, the seller on the right',
    async () => {
      const layout = pdfText(await invoicePdf('ar'));
      const line = layout.split('\n').find((l) => l.includes('Lavka') && l.includes('فاتورة')) ?? '';
      expect(line.indexOf('فاتورة'), line).toBeLessThan(line.indexOf('Lavka'));
    },
    SLOW,
  );
});
