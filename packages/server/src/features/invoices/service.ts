import { capabilityHash, newCapabilityToken } from '../../crypto/capability-token.js';
import { writeExactJson, type CreateInvoiceBody, type EventType, type UpdateInvoiceBody } from '@hostpay/protocol';
import { page, type PageRequest } from '../../admin/pagination.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { HostpayError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import type { Db, Store } from '../../store/store.js';
import { findAssetBySymbol } from '../catalog/queries.js';
import type { CheckoutService } from '../checkouts/service.js';
import type { Outbox } from '../events/outbox.js';
import { draftColumns } from './draft.js';
import { recordInvoiceMail } from './mail.js';
import { renderInvoicePdf } from './pdf.js';
import { invoicePublic } from './public.js';
import { checkoutIdsOf, checkoutIdsOfMany, lockInvoice, nextNumber, sellerOf } from './queries.js';
import { DEFAULT_INVOICE_PREFIX, invoiceNumber, invoicePagePath, invoiceTokenOwner } from './token.js';
import { invoiceView, type InvoiceRow } from './view.js';
import { INVOICE_STATUS_VALUES } from '@hostpay/protocol';

export interface InvoiceServiceOptions {
  store: Store;
  box: SecretBox;
  outbox: Outbox;
  checkouts: CheckoutService;
  publicBaseUrl: () => string;
  now: () => number;
  sandbox: boolean;
}

export interface InvoiceFilter {
  status?: string | undefined;
  customerEmail?: string | undefined;
}

const conflict = (row: InvoiceRow, what: string): never => {
  throw new HostpayError('INVOICE_STATE_CONFLICT', `invoice ${row.id} is ${row.status}: ${what}`, {
    status: row.status,
  });
};

/**
 * Invoices (spec/commerce.md, "Invoices"): drafts a merchant edits, finalized with the next
 * number of its counter (gap-free, in the finalize transaction), paid by checkouts (moves.ts),
 * voided or marked uncollectible. Every move is one write transaction with its event.
 */
export function invoiceService(opts: InvoiceServiceOptions) {
  const { store, box } = opts;
  const db = store.db;
  const iso = () => new Date(opts.now()).toISOString();

  async function decimalsOf(currency: string, d: Db = db): Promise<number> {
    const asset = await findAssetBySymbol(d, currency);
    if (asset === undefined)
      throw new HostpayError(
        'UNSUPPORTED_CURRENCY',
        `currency ${currency} is not supported; use a currency or asset code hostpay knows, such as EUR, USD or USDT`,
        { currency },
      );
    return asset.decimals;
  }

  /** The page's URL, opened from the sealed token; null for a draft. */
  function urlOf(row: InvoiceRow): string | null {
    if (row.token_sealed === null) return null;
    const token = box.open(row.token_sealed, invoiceTokenOwner(row.id)).toString('utf8');
    return `${opts.publicBaseUrl()}${invoicePagePath(token)}`;
  }

  async function viewOf(trx: Db, row: InvoiceRow) {
    return invoiceView(row, await checkoutIdsOf(trx, row.id), urlOf(row));
  }

  async function owned(merchantId: string, id: string): Promise<InvoiceRow> {
    const row = await db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
    if (row === undefined || row.merchant_id !== merchantId)
      throw new HostpayError('NOT_FOUND', `invoice ${id} does not exist`);
    return row;
  }

  /** One move of one invoice, in a write transaction over its locked row; `event` written with it. */
  async function change(
    merchantId: string,
    id: string,
    fn: (trx: Db, row: InvoiceRow, at: string) => Promise<Partial<InvoiceRow> | null>,
    event?: EventType,
  ) {
    return store.writeTransaction(async (trx) => {
      const row = await lockInvoice(trx, id, store.dialect);
      if (row === undefined || row.merchant_id !== merchantId)
        throw new HostpayError('NOT_FOUND', `invoice ${id} does not exist`);
      const at = iso();
      const set = await fn(trx, row, at);
      if (set === null) return viewOf(trx, row);
      const after = { ...row, ...set, updated_at: at };
      await trx
        .updateTable('invoices')
        .set({ ...set, updated_at: at })
        .where('id', '=', id)
        .execute();
      const view = await viewOf(trx, after);
      if (event !== undefined) await opts.outbox.append(trx, merchantId, event, writeExactJson(view), at);
      return view;
    });
  }

  const pub = invoicePublic({ store, checkouts: opts.checkouts, urlOf, sandbox: opts.sandbox, now: opts.now });

  return {
    decimalsOf,
    urlOf,
    /** The page, PDF and Pay by token (public.ts). */
    public: pub,

    /** The invoice as a PDF; 409 for a draft (no number yet). */
    async pdf(merchantId: string, id: string) {
      const row = await owned(merchantId, id);
      if (row.status === 'draft') conflict(row, 'a draft has no PDF: finalize it first');
      return { filename: `${row.number}.pdf`, bytes: await renderInvoicePdf(await pub.documentOf(row)) };
    },

    async create(merchantId: string, body: CreateInvoiceBody) {
      const columns = await draftColumns(body, undefined, decimalsOf);
      const at = iso();
      const row: InvoiceRow = {
        id: newId('inv'),
        merchant_id: merchantId,
        status: 'draft',
        number: null,
        seq: null,
        ...columns,
        amount_paid: '0',
        token_hash: null,
        token_sealed: null,
        finalized_at: null,
        paid_at: null,
        voided_at: null,
        uncollectible_at: null,
        sent_at: null,
        created_at: at,
        updated_at: at,
      };
      await db.insertInto('invoices').values(row).execute();
      return invoiceView(row, [], null);
    },

    async get(merchantId: string, id: string) {
      return viewOf(db, await owned(merchantId, id));
    },

    async list(merchantId: string, filter: InvoiceFilter, req: PageRequest) {
      let q = db.selectFrom('invoices').selectAll().where('merchant_id', '=', merchantId);
      if (filter.status !== undefined) {
        if (!(INVOICE_STATUS_VALUES as readonly string[]).includes(filter.status))
          throw new HostpayError('INVALID_QUERY', `status must be one of ${INVOICE_STATUS_VALUES.join(', ')}`, {
            parameter: 'status',
          });
        q = q.where('status', '=', filter.status);
      }
      if (filter.customerEmail !== undefined) q = q.where('customer_email', '=', filter.customerEmail);
      const result = await page(q, 'created_at', req, (r) => r, 'desc');
      const ids = await checkoutIdsOfMany(
        db,
        result.items.map((r) => r.id),
      );
      const items = result.items.map((row) => invoiceView(row, ids.get(row.id) ?? [], urlOf(row)));
      return { items, nextCursor: result.nextCursor };
    },

    update: (merchantId: string, id: string, body: UpdateInvoiceBody) =>
      change(merchantId, id, async (trx, row) => {
        if (row.status !== 'draft') conflict(row, 'only a draft can be edited');
        return draftColumns(body, row, (currency) => decimalsOf(currency, trx));
      }),

    async remove(merchantId: string, id: string) {
      return store.writeTransaction(async (trx) => {
        const row = await lockInvoice(trx, id, store.dialect);
        if (row === undefined || row.merchant_id !== merchantId)
          throw new HostpayError('NOT_FOUND', `invoice ${id} does not exist`);
        if (row.status !== 'draft') conflict(row, 'only a draft can be deleted; void an open invoice instead');
        await trx.deleteFrom('invoices').where('id', '=', id).execute();
        return invoiceView(row, [], null);
      });
    },

    finalize: (merchantId: string, id: string) =>
      change(
        merchantId,
        id,
        async (trx, row, at) => {
          if (row.status !== 'draft') conflict(row, 'only a draft can be finalized');
          if ((JSON.parse(row.line_items) as unknown[]).length === 0)
            conflict(row, 'add at least one line item before finalizing');
          if (Number(row.total) <= 0) conflict(row, 'the total must be more than 0 to finalize');
          if (row.due_at !== null && Date.parse(row.due_at) <= opts.now())
            conflict(row, 'dueAt is in the past: set a later dueAt, or null, before finalizing');
          const prefix = (await sellerOf(trx, merchantId)).prefix ?? DEFAULT_INVOICE_PREFIX;
          const seq = await nextNumber(trx, merchantId, prefix);
          const token = newCapabilityToken();
          return {
            status: 'open',
            seq,
            number: invoiceNumber(prefix, seq),
            token_hash: capabilityHash(token),
            token_sealed: box.seal(token, invoiceTokenOwner(id)),
            finalized_at: at,
          };
        },
        'invoice.finalized',
      ),

    void: (merchantId: string, id: string) =>
      change(
        merchantId,
        id,
        async (trx, row, at) => {
          if (row.status !== 'open') conflict(row, 'only an open invoice can be voided');
          const busy = await trx
            .selectFrom('checkouts')
            .select('id')
            .where('invoice_id', '=', id)
            .where('status', 'in', ['underpaid', 'processing', 'needs_review'])
            .executeTakeFirst();
          if (busy !== undefined)
            conflict(row, `its checkout ${busy.id} has received money (underpaid, processing or in review)`);
          // A checkout read as open above may have received money since (another transaction, on
          // PostgreSQL): it can no longer be canceled, and the invoice is then not voidable either.
          const moved = await cancelOpenCheckouts(trx, opts.checkouts, id, null);
          if (moved.length > 0)
            conflict(row, `its checkout ${moved[0]} has received money (underpaid, processing or in review)`);
          return { status: 'void', voided_at: at };
        },
        'invoice.voided',
      ),

    markUncollectible: (merchantId: string, id: string) =>
      change(
        merchantId,
        id,
        async (_trx, row, at) => {
          if (row.status !== 'open' && row.status !== 'partially_paid')
            conflict(row, 'only an open or partially paid invoice can be marked uncollectible');
          return { status: 'uncollectible', uncollectible_at: at };
        },
        'invoice.marked_uncollectible',
      ),

    send: (merchantId: string, id: string) =>
      change(merchantId, id, async (trx, row, at) => {
        if (row.status === 'draft' || row.status === 'void') conflict(row, 'a draft or void invoice cannot be sent');
        if (row.customer_email === null)
          throw new HostpayError(
            'CUSTOMER_EMAIL_MISSING',
            `invoice ${id} has no customer.email: it can be sent only once it has one (a finalized invoice cannot be edited; make a new one)`,
          );
        // The customer's mail commits with the send (mail.ts): kept, not sent, without a transport or on a sandbox.
        await recordInvoiceMail(trx, { invoice: row, url: urlOf(row) ?? '', at, box });
        return { sent_at: at };
      }),
  };
}

const TOOK_MONEY: readonly string[] = ['underpaid', 'processing', 'needs_review', 'settled'];

/**
 * Cancels the invoice's open checkouts but `except` inside the caller's transaction (the
 * checkouts service runs its engine there: each gets its `checkout.canceled` event). Answers the
 * ones that had taken money by the time they were locked (one that expired meanwhile is fine).
 */
export async function cancelOpenCheckouts(
  trx: Db,
  checkouts: Pick<CheckoutService, 'cancelWithin'>,
  invoiceId: string,
  except: string | null,
): Promise<string[]> {
  const open = await trx
    .selectFrom('checkouts')
    .select('id')
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'open')
    .orderBy('id')
    .execute();
  const moved: string[] = [];
  for (const c of open) {
    if (c.id === except || (await checkouts.cancelWithin(trx, c.id))) continue;
    // Not open any more once locked: money arrived, or it expired or was canceled meanwhile (fine).
    const now = await trx.selectFrom('checkouts').select('status').where('id', '=', c.id).executeTakeFirst();
    if (now !== undefined && TOOK_MONEY.includes(now.status)) moved.push(c.id);
  }
  return moved;
}

export type InvoiceService = ReturnType<typeof invoiceService>;
