import { defineFeature } from '../../feature-kit/feature.js';
import { paySource, type PaySource } from './pay-view.js';
import './receipt-lines.js';
import { receiptMailOwed, receiptMailTemplate } from './receipt-mail.js';
import { receiptRoutes } from './receipt-routes.js';
import { receiptOf, type ReceiptSource } from './receipt-view.js';
import { payRoutes } from './routes.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** The payer's view of a checkout, for the hosted payment page, and its receipt once settled. */
    pay: PaySource & ReceiptSource;
  }
}

/** The hosted payment page, its status feed, QR codes and files, and the receipts of settled checkouts. */
export const payFeature = defineFeature({
  name: 'pay',
  needs: ['store', 'checkouts'],
  provides: ['pay'],
  // The items a receipt lists for the checkouts a payment link or an invoice made (receipt-lines.ts).
  consumes: ['receiptLines'],
  // A settled checkout with customerEmail owes its payer the receipt by mail, written in the
  // settlement's transaction and rendered from the receipt when sent (receipt-mail.ts).
  contributes: {
    checkoutMoves: () => [receiptMailOwed],
    mailTemplates: ({ pay }) => [receiptMailTemplate(pay)],
  },
  create: ({ store, checkouts }, contributed) => {
    const page = paySource(store.db, checkouts);
    const receipt = async (id: string) => receiptOf(store.db, checkouts, await page.load(id), contributed.receiptLines);
    return { pay: { ...page, receipt } };
  },
  merchantRoutes: [payRoutes, receiptRoutes],
});
