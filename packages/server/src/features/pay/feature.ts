import { defineFeature } from '../../feature-kit/feature.js';
import { paySource, type PaySource } from './pay-view.js';
import { payRoutes } from './routes.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** The payer's view of a checkout, for the hosted payment page. */
    pay: PaySource;
  }
}

/** The hosted payment page, its status feed, QR codes and files. */
export const payFeature = defineFeature({
  name: 'pay',
  needs: ['store', 'checkouts'],
  provides: ['pay'],
  create: ({ store, checkouts }) => ({ pay: paySource(store.db, checkouts) }),
  merchantRoutes: [payRoutes],
});
