import { capabilityHash, isCapabilityShaped } from '../../crypto/capability-token.js';
import { HostpayError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { CheckoutService } from '../checkouts/service.js';
import { usedNoncePrune } from '../../http/public-form.js';
import { checkoutIdsOf, lockInvoice, sellerOf, type Seller } from './queries.js';

import { amountDueOf, invoiceView, type InvoiceRow } from './view.js';

/** Everything a rendering of an invoice shows (the public page, the PDF). */
export interface InvoiceDocument {
  invoice: ReturnType<typeof invoiceView>;
  row: InvoiceRow;
  seller: Seller;
  sandbox: boolean;
  /** Something is due and it can be paid on its page (open, partially paid, uncollectible). */
  payable: boolean;
}

/** The checkout statuses an invoice's Pay button sends the payer back to rather than making another. */
const LIVE = ['open', 'underpaid', 'processing'] as const;
const PAYABLE = ['open', 'partially_paid', 'uncollectible'];

export type PayResult =
  | { kind: 'not_found' }
  | { kind: 'closed'; doc: InvoiceDocument }
  | { kind: 'limited'; resetSeconds: number }
  | { kind: 'checkout'; checkoutId: string; created: boolean };

export interface InvoicePublicDeps {
  store: Store;
  checkouts: Pick<CheckoutService, 'createFrom'>;
  urlOf: (row: InvoiceRow) => string | null;
  sandbox: boolean;
  now: () => number;
}

/** A guard's refusal when another submit made a live checkout first: that one is used. */
class LiveCheckoutExists extends Error {}

/**
 * The public side of invoices (spec/commerce.md): the page and PDF by token, and Pay, which
 * reuses the invoice's live checkout (open, underpaid, processing) and creates one for
 * `amountDue` only when none is live. A form nonce already used answers its first checkout.
 */
export function invoicePublic(deps: InvoicePublicDeps) {
  const db = deps.store.db;
  const pruneNonces = usedNoncePrune(
    (before) => db.deleteFrom('invoice_pay_nonces').where('created_at', '<', before).execute(),
    deps.now,
  );

  async function rowByToken(token: string): Promise<InvoiceRow | undefined> {
    if (!isCapabilityShaped(token)) return undefined;
    const row = await db
      .selectFrom('invoices')
      .selectAll()
      .where('token_hash', '=', capabilityHash(token))
      .executeTakeFirst();
    return row === undefined || row.status === 'draft' ? undefined : row;
  }

  async function documentOf(row: InvoiceRow): Promise<InvoiceDocument> {
    return {
      invoice: invoiceView(row, await checkoutIdsOf(db, row.id), deps.urlOf(row)),
      row,
      seller: await sellerOf(db, row.merchant_id),
      sandbox: deps.sandbox,
      payable: PAYABLE.includes(row.status) && amountDueOf(row).gt(0),
    };
  }

  const liveCheckout = (d: typeof db, invoiceId: string) =>
    d
      .selectFrom('checkouts')
      .select('id')
      .where('invoice_id', '=', invoiceId)
      .where('status', 'in', [...LIVE])
      .orderBy('created_at', 'desc')
      .executeTakeFirst();

  async function remember(nonce: string, invoiceId: string, checkoutId: string) {
    await db
      .insertInto('invoice_pay_nonces')
      .values({ nonce, invoice_id: invoiceId, checkout_id: checkoutId, created_at: new Date(deps.now()).toISOString() })
      .onConflict((oc) => oc.column('nonce').doNothing())
      .execute();
  }

  return {
    documentOf,

    async page(token: string): Promise<InvoiceDocument | null> {
      const row = await rowByToken(token);
      return row === undefined ? null : documentOf(row);
    },

    /**
     * Pay: `allowCreate` is asked (the rate limits) only when a checkout would be made.
     * `nonce`: the form's, already checked for shape and age by the route.
     */
    async pay(
      token: string,
      nonce: string,
      allowCreate: (row: InvoiceRow) => Promise<number | null>,
    ): Promise<PayResult> {
      await pruneNonces();
      const row = await rowByToken(token);
      if (row === undefined) return { kind: 'not_found' };
      const used = await db
        .selectFrom('invoice_pay_nonces')
        .select('checkout_id')
        .where('nonce', '=', nonce)
        .where('invoice_id', '=', row.id)
        .executeTakeFirst();
      if (used !== undefined) return { kind: 'checkout', checkoutId: used.checkout_id, created: false };
      const doc = await documentOf(row);
      if (!doc.payable) return { kind: 'closed', doc };
      const live = await liveCheckout(db, row.id);
      if (live !== undefined) {
        await remember(nonce, row.id, live.id);
        return { kind: 'checkout', checkoutId: live.id, created: false };
      }
      const wait = await allowCreate(row);
      if (wait !== null) return { kind: 'limited', resetSeconds: wait };
      const due = amountDueOf(row);
      try {
        const checkout = await deps.checkouts.createFrom(
          row.merchant_id,
          {
            amount: due.toFixed(),
            currency: row.currency,
            orderId: row.number ?? row.id,
            description: `Invoice ${row.number ?? ''}`.trim(),
            ...(row.customer_email === null ? {} : { customerEmail: row.customer_email }),
          },
          {
            origin: { invoiceId: row.id },
            // In the create's transaction: the invoice still wants exactly this, and no other
            // submit made a live checkout meanwhile.
            guard: async (trx) => {
              const now = await lockInvoice(trx, row.id, deps.store.dialect);
              if (now === undefined || !PAYABLE.includes(now.status) || !amountDueOf(now).eq(due))
                throw new HostpayError('INVOICE_STATE_CONFLICT', `invoice ${row.id} changed while it was being paid`);
              if ((await liveCheckout(trx, row.id)) !== undefined) throw new LiveCheckoutExists();
            },
          },
        );
        await remember(nonce, row.id, checkout.id);
        return { kind: 'checkout', checkoutId: checkout.id, created: true };
      } catch (err) {
        if (!(err instanceof LiveCheckoutExists)) throw err;
        const other = await liveCheckout(db, row.id);
        if (other === undefined)
          throw new HostpayError('INVOICE_STATE_CONFLICT', `invoice ${row.id} changed while it was being paid`);
        await remember(nonce, row.id, other.id);
        return { kind: 'checkout', checkoutId: other.id, created: false };
      }
    },
  };
}

export type InvoicePublic = ReturnType<typeof invoicePublic>;
