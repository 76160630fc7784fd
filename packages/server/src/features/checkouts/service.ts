import { Decimal, decimalText, parseAmount } from '@hostpay/protocol';
import { randomBytes } from 'node:crypto';
import { isoTime, ISO_TIME_HELP } from '../../admin/deps.js';
import { page, type PageRequest } from '../../admin/pagination.js';
import { HostpayError } from '../../errors.js';
import type { Db, Store } from '../../store/store.js';
import type { Caches } from '../../cache/caches.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { feeService } from '../fees/preview.js';
import { checkCreateRequest, type CreateCheckoutRequest } from './create-input.js';
import { candidates, createCheckout, loadTolerance, type Offer } from './create.js';
import { optionTotals } from './decide.js';
import { evaluate, type EngineContext, type EvaluateResult, type OperatorSettlement } from './engine.js';
import { paymentFacts } from './engine-facts.js';
import { findCheckout, loadCheckouts, type LoadedCheckout } from './queries.js';
import { CHECKOUT_STATUSES } from './states.js';
import {
  attachTransfer,
  reportTransfer,
  retractTransfer,
  transferView,
  type ReportOutcome,
  type TransferReport,
} from './transfers.js';
import { checkoutView } from './view.js';

export interface CheckoutFilter {
  status?: string | undefined;
  orderId?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
  merchantId?: string | undefined;
}

export interface CheckoutServiceOptions {
  store: Store;
  caches: Caches;
  /** `<public base URL>` of `/pay/<id>` links (HOSTPAY_PUBLIC_URL, default the listen address). */
  publicBaseUrl: () => string;
  sandbox: boolean;
  now?: () => number;
}

/**
 * Checkouts, written once for everyone who acts on them: merchants (create, read, cancel,
 * simulate in a sandbox), operators (transfers, review) and the expiry timer. Every change runs in
 * one write transaction through the engine (engine.ts); wallet caches are dropped after commit.
 */
export function checkoutService(opts: CheckoutServiceOptions) {
  const { store, caches } = opts;
  const db = store.db;
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
  // Changed only by a merchant update, which drops the `keys` scope (merchants/service.ts).
  const tolerances = caches.facts<{ percent: string }>(['keys'], { merchantKeyed: true });
  const tolerance = (merchantId: string) =>
    caches.through(tolerances.map, merchantId, () => loadTolerance(db, merchantId));
  const now = opts.now ?? Date.now;
  const engine = (): EngineContext => ({
    dialect: store.dialect,
    publicBaseUrl: opts.publicBaseUrl(),
    at: new Date(now()).toISOString(),
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
    return result;
  }

  function createFor(merchantId: string, req: CreateCheckoutRequest) {
    const checked = checkCreateRequest(req, opts.sandbox);
    return createCheckout(store, fees, merchantId, checked, {
      publicBaseUrl: opts.publicBaseUrl(),
      nowMs: now(),
      offer,
      tolerance,
    });
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
    const loaded = await loadCheckouts(db, result.items);
    return { items: loaded.map(view), nextCursor: result.nextCursor };
  }

  const outcome = (o: ReportOutcome, symbols: { chain: string; asset: string }) => ({
    transfer: transferView(o.transfer, symbols),
    checkout: o.evaluation ? view(o.evaluation.checkout) : null,
  });

  async function symbolsOf(chainId: string, assetId: string) {
    const [chain, asset] = await Promise.all([
      db.selectFrom('chains').select('symbol').where('id', '=', chainId).executeTakeFirstOrThrow(),
      db.selectFrom('assets').select('symbol').where('id', '=', assetId).executeTakeFirstOrThrow(),
    ]);
    return { chain: chain.symbol, asset: asset.symbol };
  }

  return {
    // --- merchants -------------------------------------------------------------------------
    async create(merchantId: string, req: CreateCheckoutRequest) {
      return view((await createFor(merchantId, req)).checkout);
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
    listAll: (filter: CheckoutFilter, req: PageRequest) => list(filter, req, 'asc'),

    async reportTransfer(report: TransferReport) {
      const result = await applyChange((trx, ctx) => reportTransfer(trx, report, ctx));
      return {
        created: result.created,
        ...outcome(result, await symbolsOf(result.transfer.chain_id, result.transfer.asset_id)),
      };
    },

    async retractTransfer(id: string) {
      const result = await applyChange((trx, ctx) => retractTransfer(trx, id, ctx));
      return outcome(result, await symbolsOf(result.transfer.chain_id, result.transfer.asset_id));
    },

    async attachTransfer(id: string, checkoutId: string, audit: AuditContext) {
      const result = await applyChange(async (trx, ctx) => {
        const r = await attachTransfer(trx, id, checkoutId, ctx);
        await recordAudit(trx, audit, {
          action: 'transfer.attach',
          objectType: 'transfer',
          objectId: id,
          before: { checkoutId: null },
          after: { checkoutId },
        });
        return r;
      });
      return outcome(result, await symbolsOf(result.transfer.chain_id, result.transfer.asset_id));
    },

    async listTransfers(
      filter: { matched?: boolean | undefined; chain?: string | undefined; checkoutId?: string | undefined },
      req: PageRequest,
    ) {
      let q = db
        .selectFrom('transfers as t')
        .innerJoin('chains as c', 'c.id', 't.chain_id')
        .innerJoin('assets as a', 'a.id', 't.asset_id')
        .selectAll('t')
        .select(['c.symbol as chain_symbol', 'a.symbol as asset_symbol']);
      if (filter.matched === false) q = q.where('t.checkout_id', 'is', null);
      if (filter.matched === true) q = q.where('t.checkout_id', 'is not', null);
      if (filter.chain !== undefined) q = q.where('c.symbol', '=', filter.chain.toUpperCase());
      if (filter.checkoutId !== undefined) q = q.where('t.checkout_id', '=', filter.checkoutId);
      return page(q, 't.detected_at', req, (r) => transferView(r, { chain: r.chain_symbol, asset: r.asset_symbol }));
    },

    async settleReview(
      id: string,
      req: { asset?: string | undefined; chain?: string | undefined },
      audit: AuditContext,
    ) {
      const c = await loadOwned(undefined, id);
      const settlement = await operatorSettlement(c, req);
      const result = await applyChange(async (trx, ctx) => {
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

  /** What an operator's settle credits: the value received, minus the fee for that value. */
  async function operatorSettlement(
    c: LoadedCheckout,
    req: { asset?: string | undefined; chain?: string | undefined },
  ): Promise<OperatorSettlement> {
    const live = c.transfers.filter((t) => t.retracted === 0);
    const groups = new Map<
      string,
      { assetId: string; chainId: string; asset: string; chain: string; amount: Decimal }
    >();
    for (const t of live) {
      const k = `${t.asset_symbol}/${t.chain_symbol}`;
      const g = groups.get(k) ?? {
        assetId: t.asset_id,
        chainId: t.chain_id,
        asset: t.asset_symbol,
        chain: t.chain_symbol,
        amount: new Decimal(0),
      };
      g.amount = g.amount.plus(t.amount);
      groups.set(k, g);
    }
    const wanted =
      req.asset !== undefined && req.chain !== undefined
        ? `${req.asset.toUpperCase()}/${req.chain.toUpperCase()}`
        : undefined;
    const g = wanted !== undefined ? groups.get(wanted) : groups.size === 1 ? [...groups.values()][0] : undefined;
    if (g === undefined) {
      throw new HostpayError(
        'INVALID_BODY',
        groups.size === 0
          ? `checkout ${c.row.id} has received nothing to settle: reject it instead`
          : `name the payments to credit with asset and chain: ${[...groups.keys()].join(', ')}`,
        { received: [...groups.keys()] },
      );
    }
    // The locked rate when the asset was offered on that chain, else today's operator rate.
    const option = c.options.find((o) => o.asset_id === g.assetId && o.chain_id === g.chainId);
    const rate = option ? new Decimal(option.rate) : await fees.rateOf(c.row.currency, g.asset);
    if (rate === null)
      throw new HostpayError(
        'NO_RATE',
        `no ${c.row.currency}/${g.asset} rate is configured, so the ${g.asset} received cannot be valued: set the rate, or reject the checkout`,
        { base: c.row.currency, quote: g.asset },
      );
    const asset = await db
      .selectFrom('assets')
      .select('decimals')
      .where('id', '=', g.assetId)
      .executeTakeFirstOrThrow();
    const value = g.amount.dividedBy(rate).toDecimalPlaces(18, Decimal.ROUND_DOWN);
    const parsed = parseAmount(decimalText(value));
    if (!parsed.ok)
      throw new HostpayError(
        'INVALID_AMOUNT',
        `the value received (${decimalText(value)} ${c.row.currency}) cannot be charged a fee: ${parsed.reason}`,
      );
    const quote = await fees.preview(c.row.merchant_id, parsed.value, c.row.currency);
    const feeRate = await fees.rateOf(quote.currency, g.asset);
    if (feeRate === null)
      throw new HostpayError(
        'NO_RATE',
        `no ${quote.currency}/${g.asset} rate is configured for the fee: set it, or reject the checkout`,
        { base: quote.currency, quote: g.asset },
      );
    const fee = new Decimal(String(quote.fee)).times(feeRate).toDecimalPlaces(asset.decimals, Decimal.ROUND_HALF_UP);
    return { assetId: g.assetId, chainId: g.chainId, amount: Decimal.max(g.amount.minus(fee), 0) };
  }
}

export type CheckoutService = ReturnType<typeof checkoutService>;
