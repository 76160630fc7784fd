import { Decimal, decimalText } from '@hostpay/protocol';
import { randomBytes } from 'node:crypto';
import { isoTime, ISO_TIME_HELP } from '../../http/iso-time.js';
import { page, type PageRequest } from '../../admin/pagination.js';
import { HostpayError } from '../../errors.js';
import type { Db, Store } from '../../store/store.js';
import type { Caches } from '../../cache/caches.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { feeService } from '../fees/preview.js';
import { checkCreateRequest, type CheckoutOrigin, type CreateCheckoutRequest } from './create-input.js';
import { candidates, createCheckout, loadTerms } from './create.js';
import type { MerchantTerms, Offer } from './create-types.js';
import { createBatch } from './create-batch.js';
import { optionTotals } from './decide.js';
import { evaluate, type EngineContext, type EvaluateResult } from './engine.js';
import { paymentFacts } from './engine-facts.js';
import { findCheckout, loadCheckouts, lockCheckout, type LoadedCheckout } from './queries.js';
import { backfillReceiptNumber } from './receipt-numbers.js';
import { CHECKOUT_STATUSES } from './states.js';
import { reportTransfer, type TransferReport } from './transfers.js';
import { refundsTaken, settlementQuote, settlePreview, withMerchants } from './review.js';
import { CheckoutMetrics } from './metrics.js';
import { checkoutView } from './view.js';
import { transferOperations } from './operator-transfers.js';
import type { KeyOpener } from '../addresses/sealed-key.js';
import type { Outbox } from '../events/outbox.js';
import type { CheckoutMoveHandler } from './moves.js';

export interface CheckoutFilter {
  status?: string | undefined;
  orderId?: string | undefined;
  paymentLinkId?: string | undefined;
  invoiceId?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  merchantId?: string | undefined;
}

/** Who makes a checkout besides the API, and what must hold when it is written (create.ts). */
export interface CreateOrigin {
  origin: CheckoutOrigin;
  guard?: (trx: Db, checkoutId: string) => Promise<void>;
}

export interface CheckoutServiceOptions {
  store: Store;
  caches: Caches;
  /** `<public base URL>` of `/pay/<id>` links (HOSTPAY_PUBLIC_URL, default the listen address). */
  publicBaseUrl: () => string;
  sandbox: boolean;
  /** Opens the sealed account keys deposit addresses are derived from. */
  box: KeyOpener;
  now?: () => number;
  /** Where the checkouts' events go. */
  outbox: Outbox;
  /** The `checkoutMoves` contributions (moves.ts), read when a checkout moves. */
  moveHandlers?: () => readonly CheckoutMoveHandler[];
  /** The business counters (metrics.ts); a service of its own when absent. */
  metrics?: CheckoutMetrics;
}

/**
 * Checkouts, written once for everyone who acts on them: merchants (create, read, cancel,
 * simulate in a sandbox), operators (transfers, review) and the expiry timer. Every change runs in
 * one write transaction through the engine (engine.ts); wallet caches are dropped after commit.
 */
export function checkoutService(opts: CheckoutServiceOptions) {
  const { store, caches } = opts;
  const db = store.db;
  const metrics = opts.metrics ?? new CheckoutMetrics();
  const fees = feeService(db, caches);
  // A merchant's payable options per requested list: they change with the catalog and its wallets.
  const offers = caches.facts<Map<string, Offer>>(['catalog'], { merchantKeyed: true });
  function offer(merchantId: string, wanted: { asset: string; chain: string }[] | null): Offer | Promise<Offer> {
    const key = wanted === null ? '' : wanted.map((w) => `${w.asset}/${w.chain}`).join(',');
    if (caches.enabled) {
      caches.sync();
      const known = offers.map.get(merchantId)?.get(key);
      if (known !== undefined) return known;
    }
    const generation = caches.generation;
    return candidates(db, merchantId, wanted).then((found) => {
      if (caches.enabled && caches.generation === generation) {
        const mine = offers.map.get(merchantId) ?? new Map<string, Offer>();
        // Bounded per merchant as the whole cache is by merchants: requests name few distinct lists.
        if (mine.size >= 64) mine.clear();
        offers.map.set(merchantId, mine.set(key, found));
      }
      return found;
    });
  }
  // Changed by a merchant update, which drops the `keys` scope (merchants/service.ts), and by the
  // default spread, which drops `fees` (merchants/spread.ts).
  const termsCache = caches.facts<MerchantTerms>(['keys', 'fees'], { merchantKeyed: true });
  const terms = (merchantId: string) => caches.through(termsCache.map, merchantId, () => loadTerms(db, merchantId));
  const now = opts.now ?? Date.now;
  // PostgreSQL: creates written in batches, one statement per turn of the event loop (create-batch.ts).
  const batches = createBatch(store, opts.outbox);
  const engine = (): EngineContext => ({
    dialect: store.dialect,
    publicBaseUrl: opts.publicBaseUrl(),
    at: new Date(now()).toISOString(),
    outbox: opts.outbox,
    ...(opts.moveHandlers === undefined ? {} : { moveHandlers: opts.moveHandlers }),
  });
  const view = (c: LoadedCheckout) => checkoutView(c, opts.publicBaseUrl());

  /** Runs a change and drops the wallet caches of a merchant it credited, once committed. */
  async function applyChange<T extends { evaluation?: EvaluateResult | null }>(
    fn: (trx: Db, ctx: EngineContext) => Promise<T>,
  ): Promise<T> {
    const ctx = engine();
    const result = await store.writeTransaction((trx) => fn(trx, ctx));
    const merchant = result.evaluation?.credited;
    if (merchant) await caches.invalidate({ kind: 'wallets', merchantId: merchant });
    await metrics.settledBy(db, result.evaluation);
    return result;
  }

  async function createFor(merchantId: string, req: CreateCheckoutRequest, from?: CreateOrigin) {
    const checked = checkCreateRequest(req, opts.sandbox);
    // Resolves once the checkout is committed, alone or in its batch (create-batch.ts): counted then.
    const created = await createCheckout(store, fees, merchantId, checked, {
      publicBaseUrl: opts.publicBaseUrl(),
      nowMs: now(),
      offer,
      terms,
      batch: batches?.(merchantId),
      box: opts.box,
      outbox: opts.outbox,
      origin: from?.origin,
      guard: from?.guard,
    });
    metrics.created.inc();
    return created;
  }

  async function loadOwned(merchantId: string | undefined, id: string): Promise<LoadedCheckout> {
    const row = await findCheckout(db, id);
    // Another merchant's checkout is "not found", never "forbidden": its existence is not revealed.
    if (row === undefined || (merchantId !== undefined && row.merchant_id !== merchantId))
      throw new HostpayError('NOT_FOUND', `checkout ${id} does not exist`);
    const [loaded] = await loadCheckouts(db, [row]);
    return loaded!;
  }

  async function list(filter: CheckoutFilter, req: PageRequest, direction: 'asc' | 'desc') {
    const result = await listLoaded(filter, req, direction);
    return { items: result.items.map(view), nextCursor: result.nextCursor };
  }

  async function listLoaded(filter: CheckoutFilter, req: PageRequest, direction: 'asc' | 'desc') {
    let q = db.selectFrom('checkouts').selectAll();
    if (filter.merchantId !== undefined) q = q.where('merchant_id', '=', filter.merchantId);
    if (filter.status !== undefined) {
      if (!(CHECKOUT_STATUSES as readonly string[]).includes(filter.status))
        throw new HostpayError('INVALID_QUERY', `status must be one of ${CHECKOUT_STATUSES.join(', ')}`, {
          parameter: 'status',
        });
      q = q.where('status', '=', filter.status);
    }
    if (filter.orderId !== undefined) q = q.where('order_id', '=', filter.orderId);
    if (filter.paymentLinkId !== undefined) q = q.where('payment_link_id', '=', filter.paymentLinkId);
    if (filter.invoiceId !== undefined) q = q.where('invoice_id', '=', filter.invoiceId);
    for (const [name, op] of [
      ['createdFrom', '>='],
      ['createdTo', '<'],
    ] as const) {
      const text = filter[name];
      if (text === undefined) continue;
      const at = isoTime(text);
      if (at === null) throw new HostpayError('INVALID_QUERY', `${name} must be ${ISO_TIME_HELP}`, { parameter: name });
      q = q.where('created_at', op, at);
    }
    const result = await page(q, 'created_at', req, (r) => r, direction);
    return { items: await loadCheckouts(db, result.items), nextCursor: result.nextCursor };
  }

  const transfers = transferOperations({ db, applyChange, view });

  return {
    /** Business counters, added to /metrics by the merchant routes. */
    metrics,
    // --- merchants -------------------------------------------------------------------------
    async create(merchantId: string, req: CreateCheckoutRequest) {
      return view((await createFor(merchantId, req)).checkout);
    },

    /**
     * A checkout made for a payment link or an invoice (never reachable from the wire): `origin`
     * is stored with it, `guard` runs first in its write transaction (create.ts).
     */
    async createFrom(merchantId: string, req: CreateCheckoutRequest, from: CreateOrigin) {
      return view((await createFor(merchantId, req, from)).checkout);
    },

    /** `create`, answered as the exact JSON the `checkout.created` event holds (the HTTP route's answer). */
    async createJson(merchantId: string, req: CreateCheckoutRequest): Promise<string> {
      return (await createFor(merchantId, req)).json;
    },

    get: async (merchantId: string | undefined, id: string) => view(await loadOwned(merchantId, id)),

    listForMerchant: (merchantId: string, filter: Omit<CheckoutFilter, 'merchantId'>, req: PageRequest) =>
      list({ ...filter, merchantId }, req, 'desc'),

    async cancel(merchantId: string, id: string) {
      await loadOwned(merchantId, id);
      const result = await applyChange(async (trx, ctx) => ({
        evaluation: await evaluate(trx, id, ctx, { event: { kind: 'merchant_cancel' } }),
      }));
      return view(result.evaluation.checkout);
    },

    /**
     * Cancels an open checkout inside the caller's write transaction (an invoice that became paid
     * or void cancels its other open checkouts in the transaction that moved it, checkouts/moves.ts):
     * false, and nothing written, when it is no longer open. Runs the engine like `cancel`, so the
     * checkout's timeline, `checkout.canceled` event and the checkoutMoves handlers commit with it.
     */
    async cancelWithin(trx: Db, id: string): Promise<boolean> {
      const row = await lockCheckout(trx, id, store.dialect);
      if (row === undefined || row.status !== 'open') return false;
      await evaluate(trx, id, engine(), { event: { kind: 'merchant_cancel' } });
      return true;
    },

    /** A settled checkout's receipt number, taken now if it settled before numbers existed (receipt-numbers.ts). */
    receiptNumberFor: (id: string) => store.writeTransaction((trx) => backfillReceiptNumber(trx, store.dialect, id)),

    /** Sandbox only: a payment to one option's address through the transfers code path. */
    async simulatePayment(
      merchantId: string,
      id: string,
      req: { asset: string; chain: string; amount?: string | undefined; confirmations?: number | undefined },
    ) {
      if (!opts.sandbox)
        throw new HostpayError(
          'NOT_FOUND',
          'simulate-payment exists only on a sandbox server (hostpay serve --sandbox or --demo)',
        );
      const c = await loadOwned(merchantId, id);
      const chain = req.chain.toUpperCase();
      const asset = req.asset.toUpperCase();
      const onChain = c.options.filter((o) => o.chain_symbol === chain);
      const option = onChain.find((o) => o.asset_symbol === asset) ?? onChain[0];
      if (option === undefined)
        throw new HostpayError(
          'INVALID_BODY',
          `checkout ${id} has no payment option on chain ${chain}: use one of ${c.options.map((o) => `${o.asset_symbol}/${o.chain_symbol}`).join(', ')}`,
          { field: 'chain' },
        );
      let amount = req.amount;
      if (amount === undefined) {
        const received = optionTotals(
          {
            id: option.id,
            amountDue: new Decimal(option.amount_due),
            confirmationsRequired: option.confirmations_required,
          },
          paymentFacts(c),
        ).received;
        const remaining = new Decimal(option.amount_due).minus(received);
        amount = decimalText(remaining.gt(0) ? remaining : new Decimal(option.amount_due));
      }
      const report: TransferReport = {
        chain,
        asset,
        toAddress: option.address,
        txHash: `sim_${randomBytes(16).toString('hex')}`,
        index: 0,
        amount,
        confirmations: req.confirmations ?? option.confirmations_required,
      };
      const result = await applyChange((trx, ctx) => reportTransfer(trx, report, ctx));
      return result.evaluation ? view(result.evaluation.checkout) : view(await loadOwned(merchantId, id));
    },

    // --- operators -------------------------------------------------------------------------
    /** Every merchant's checkouts, each naming its merchant (the operator's view). */
    async listAll(filter: CheckoutFilter, req: PageRequest) {
      const result = await listLoaded(filter, req, 'asc');
      return { items: await withMerchants(db, result.items, view), nextCursor: result.nextCursor };
    },

    /** One checkout of any merchant, naming its merchant. */
    async getAny(id: string) {
      const [one] = await withMerchants(db, [await loadOwned(undefined, id)], view);
      return one!;
    },

    /** What a settle would credit, and where: computed by the settle's own code (review.ts), nothing written. */
    async settlePreview(id: string, req: { asset?: string | undefined; chain?: string | undefined }) {
      const c = await loadOwned(undefined, id);
      if (c.row.status !== 'needs_review')
        throw new HostpayError(
          'CHECKOUT_STATE_CONFLICT',
          `checkout ${id} is ${c.row.status}: only a checkout in needs_review can be settled`,
          { status: c.row.status, reason: c.row.reason },
        );
      const quote = await settlementQuote(db, fees, c, req, now()).catch((err: unknown) => {
        // The same refusal as the settle's, named for where a preview takes its choice: the query.
        if (err instanceof HostpayError && err.code === 'INVALID_BODY')
          throw new HostpayError('INVALID_QUERY', err.message, err.details);
        throw err;
      });
      return settlePreview(db, c, quote);
    },

    ...transfers,

    async settleReview(
      id: string,
      req: { asset?: string | undefined; chain?: string | undefined },
      audit: AuditContext,
    ) {
      const c = await loadOwned(undefined, id);
      const { settlement, refunded } = await settlementQuote(db, fees, c, req, now());
      const result = await applyChange(async (trx, ctx) => {
        // A refund racing this settle: the checkout's lock orders them, then the deduction is read again.
        await lockCheckout(trx, id, store.dialect);
        if (!(await refundsTaken(trx, c, settlement)).eq(refunded))
          throw new HostpayError(
            'CHECKOUT_STATE_CONFLICT',
            `checkout ${id} changed while it was being settled (a refund of it): preview the settle again`,
            { status: c.row.status },
          );
        const evaluation = await evaluate(trx, id, ctx, { event: { kind: 'operator_settle' }, settlement });
        await recordAudit(trx, audit, {
          action: 'checkout.settle',
          objectType: 'checkout',
          objectId: id,
          before: { status: c.row.status, reason: c.row.reason },
          after: { status: evaluation.checkout.row.status, credited: decimalText(settlement.amount) },
        });
        return { evaluation };
      });
      return view(result.evaluation.checkout);
    },

    async rejectReview(id: string, audit: AuditContext) {
      const c = await loadOwned(undefined, id);
      const result = await applyChange(async (trx, ctx) => {
        const evaluation = await evaluate(trx, id, ctx, { event: { kind: 'operator_reject' } });
        await recordAudit(trx, audit, {
          action: 'checkout.reject',
          objectType: 'checkout',
          objectId: id,
          before: { status: c.row.status, reason: c.row.reason },
          after: { status: evaluation.checkout.row.status },
        });
        return { evaluation };
      });
      return view(result.evaluation.checkout);
    },

    /**
     * Expires what is due: every open or underpaid checkout past expiresAt, each in its own
     * transaction through the engine (which locks the row and re-reads it), so several instances
     * running this at once change each checkout once. Returns how many moved.
     */
    async expireDue(limit = 200): Promise<number> {
      const due = await db
        .selectFrom('checkouts')
        .select('id')
        .where('status', 'in', ['open', 'underpaid'])
        .where('expires_at', '<=', new Date(now()).toISOString())
        .orderBy('expires_at')
        .limit(limit)
        .execute();
      let moved = 0;
      for (const { id } of due) {
        const result = await applyChange(async (trx, ctx) => ({ evaluation: await evaluate(trx, id, ctx) }));
        if (result.evaluation.moves.length > 0) moved++;
      }
      return moved;
    },
  };
}

export type CheckoutService = ReturnType<typeof checkoutService>;
