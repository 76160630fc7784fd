import { defineFeature } from '../../feature-kit/feature.js';
import { invoiceMailTemplate } from './mail.js';
import { invoiceMerchantRoutes } from './merchant-routes.js';
import { invoiceMoves } from './moves.js';
import { invoiceReceiptLines } from './receipt-lines.js';
import { invoiceSource } from './search.js';
import { invoicePageRoutes } from './page-routes.js';
import { invoiceService, type InvoiceService } from './service.js';
import { invoicesMigrations } from './tables.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** Invoices: drafts, numbers, payment through checkouts, the public page. */
    invoices: InvoiceService;
  }
}

/** Invoices (spec/commerce.md, "Invoices"): the merchant's routes, the public page and its PDF. */
export const invoicesFeature = defineFeature({
  name: 'invoices',
  migrations: invoicesMigrations,
  needs: ['store', 'box', 'config', 'publicBaseUrl', 'now', 'outbox', 'checkouts'],
  provides: ['invoices'],
  // A settled checkout of an invoice pays it, in the checkout's transaction (moves.ts); `send`
  // mails the customer through the mail outbox, rendered by its template (mail.ts).
  contributes: {
    mailTemplates: () => [invoiceMailTemplate],
    checkoutMoves: ({ store, outbox, checkouts, invoices }) => [
      invoiceMoves({ store, outbox, checkouts, decimalsOf: invoices.decimalsOf, urlOf: invoices.urlOf }),
    ],
    // The merchant search finds invoices by id, number, customer email and total (search.ts).
    searchSources: () => [invoiceSource],
    // A receipt of an invoice's checkout lists its lines and tax and names the invoice (receipt-lines.ts).
    receiptLines: () => [invoiceReceiptLines],
  },
  create: ({ store, box, config, publicBaseUrl, now, outbox, checkouts }) => ({
    invoices: invoiceService({
      store,
      box,
      outbox,
      checkouts,
      publicBaseUrl,
      now: now ?? Date.now,
      sandbox: config.sandbox ?? false,
    }),
  }),
  merchantRoutes: [invoiceMerchantRoutes, invoicePageRoutes],
});
