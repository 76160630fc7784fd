import { PAYOUT_STATUS_VALUES, writeExactJson, type PayoutActor } from '@hostpay/protocol';
import { page, type PageRequest } from '../../admin/pagination.js';
import type { Caches } from '../../cache/caches.js';
import { HostpayError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import { isStoreUnavailable } from '../../store/unavailable.js';
import type { Db, Store } from '../../store/store.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { takeEventCounter, type Outbox } from '../events/outbox.js';
import { keyedQueue } from '../ledger/wallet-queue.js';
import { checkPayoutAddress } from './address.js';
import type { PayoutMoveGuard } from './guards.js';
import { PayoutMetrics } from './metrics.js';
import { movePayout, type MoveContext, type MoveRequest } from './moves.js';
import {
  adminPayoutView,
  destinationsWithNames,
  destinationStatus,
  destinationView,
  findPayout,
  loadPayouts,
  payoutsWithNames,
  payoutView,
  type LoadedPayout,
} from './queries.js';
import { payoutOperatorTools } from './operator-tools.js';
import { requestPayout, type PayoutRequestInput } from './request.js';

export interface PayoutServiceOptions {
  store: Store;
  caches: Caches;
  sandbox: boolean;
  now?: (() => number) | undefined;
  /** Senders' vetoes over the moves made here (guards.ts). */
  guards?: (() => readonly PayoutMoveGuard[]) | undefined;
  /** Where the payouts' events go. */
  outbox: Outbox;
  /** The business counters (metrics.ts), shared with the senders' port; its own when absent. */
  metrics?: PayoutMetrics | undefined;
}

export interface PayoutFilter {
  status?: string | undefined;
  merchantId?: string | undefined;
  chain?: string | undefined;
}

const HOUR_MS = 3600 * 1000;

/**
 * Payouts and the payout address book, written once for everyone who acts on them: merchants
 * (request, read, cancel, simulate in a sandbox, destinations), operators (approve, reject, cancel,
 * the manual sender's sent/complete/fail, activate destinations, network fees) and senders (the
 * port, sender-port.ts). Every change is one write transaction (moves.ts, request.ts).
 */
export function payoutService(opts: PayoutServiceOptions) {
  const { store, caches } = opts;
  const db = store.db;
  const now = opts.now ?? Date.now;
  const metrics = opts.metrics ?? new PayoutMetrics();
  // PostgreSQL: one merchant's requests wait in memory, not on a pooled connection (ledger/wallet-queue.ts).
  const inLine = store.dialect === 'postgres' ? keyedQueue(isStoreUnavailable) : undefined;
  // Every move made here is a merchant's, an operator's or the sandbox's: the senders may veto it.
  const context = (): MoveContext => ({
    dialect: store.dialect,
    at: new Date(now()).toISOString(),
    outbox: opts.outbox,
    guards: opts.guards?.(),
  });
  const operatorTools = payoutOperatorTools(store, () => context().at);

  async function dropWallets(merchantId: string | null): Promise<void> {
    if (merchantId !== null) await caches.invalidate({ kind: 'wallets', merchantId });
  }

  /** Creates a payout in its own transaction (requestPayout, request.ts). */
  async function request(input: PayoutRequestInput): Promise<LoadedPayout> {
    const run = () => store.writeTransaction((trx) => requestPayout(trx, context(), input));
    const payout = inLine === undefined ? await run() : await inLine(input.merchantId, run);
    await dropWallets(input.merchantId);
    return payout;
  }

  /** One move in its own transaction. */
  async function move(id: string, req: MoveRequest): Promise<LoadedPayout> {
    const result = await store.writeTransaction((trx) => movePayout(trx, context(), id, req));
    metrics.movedBy(result);
    await dropWallets(result.walletsOf);
    return result.payout;
  }

  function checkStatus(status: string | undefined): void {
    if (status !== undefined && !(PAYOUT_STATUS_VALUES as readonly string[]).includes(status))
      throw new HostpayError('INVALID_QUERY', `status must be one of ${PAYOUT_STATUS_VALUES.join(', ')}`, {
        parameter: 'status',
      });
  }

  async function list(filter: PayoutFilter, req: PageRequest, direction: 'asc' | 'desc') {
    checkStatus(filter.status);
    let q = payoutsWithNames(db);
    if (filter.merchantId !== undefined) q = q.where('p.merchant_id', '=', filter.merchantId);
    if (filter.status !== undefined) q = q.where('p.status', '=', filter.status);
    if (filter.chain !== undefined) q = q.where('c.symbol', '=', filter.chain.toUpperCase());
    const result = await page(q, 'p.created_at', req, (r) => r, direction);
    return { items: await loadPayouts(db, result.items), nextCursor: result.nextCursor };
  }

  async function owned(merchantId: string | undefined, id: string): Promise<LoadedPayout> {
    const found = await findPayout(db, id);
    if (found === undefined || (merchantId !== undefined && found.row.merchant_id !== merchantId))
      throw new HostpayError('NOT_FOUND', `payout ${id} does not exist`);
    return found;
  }

  async function chainRow(symbol: string) {
    const chain = await db
      .selectFrom('chains')
      .select(['id', 'symbol', 'family', 'network_type'])
      .where('symbol', '=', symbol.toUpperCase())
      .executeTakeFirst();
    if (chain === undefined) throw new HostpayError('NOT_FOUND', `chain ${symbol} does not exist`);
    return chain;
  }

  async function destinationById(trx: Db, id: string, merchantId?: string) {
    const d = await destinationsWithNames(trx).where('d.id', '=', id).executeTakeFirst();
    if (d === undefined || (merchantId !== undefined && d.merchant_id !== merchantId))
      throw new HostpayError('NOT_FOUND', `payout destination ${id} does not exist`);
    return d;
  }

  /** Changes a destination's status with its event (and audit record, for an operator). */
  async function setDestinationStatus(
    id: string,
    status: 'active' | 'revoked',
    who: { merchantId?: string; audit?: AuditContext },
  ) {
    const at = context().at;
    return store.writeTransaction(async (trx) => {
      const before = await destinationById(trx, id, who.merchantId);
      const current = destinationStatus(before, at);
      if (current === 'revoked' || (status === 'active' && current === 'active'))
        throw new HostpayError('PAYOUT_STATE_CONFLICT', `payout destination ${id} is already ${current}`, {
          status: current,
        });
      const after = {
        ...before,
        status,
        updated_at: at,
        active_from: status === 'active' && before.active_from > at ? at : before.active_from,
      };
      await trx
        .updateTable('payout_destinations')
        .set({ status, updated_at: at, active_from: after.active_from })
        .where('id', '=', id)
        .execute();
      const view = destinationView(after, at);
      await opts.outbox.append(
        trx,
        before.merchant_id,
        status === 'active' ? 'payout_destination.activated' : 'payout_destination.revoked',
        writeExactJson(view),
        at,
      );
      if (who.audit !== undefined)
        await recordAudit(trx, who.audit, {
          action: `payout_destination.${status === 'active' ? 'activate' : 'revoke'}`,
          objectType: 'payout_destination',
          objectId: id,
          before: destinationView(before, at),
          after: view,
        });
      return view;
    });
  }

  /** Whether the chain has an enabled EVM watch (an EVM node): a manual payout there is verified on chain. */
  async function watched(chainId: string): Promise<boolean> {
    const w = await db
      .selectFrom('chain_watches')
      .select('enabled')
      .where('chain_id', '=', chainId)
      .where('adapter_kind', '=', 'evm-rpc')
      .executeTakeFirst();
    return w !== undefined && Number(w.enabled) === 1;
  }

  /**
   * Adds an address to the book, or answers its live entry (`created: false`, nothing written)
   * when the same normalised address is already there on that chain: a second entry cooling off
   * would shadow the active one. The merchant's event counter is locked first (as requestPayout
   * does), so two adds of one address racing on PostgreSQL make one entry; SQLite writes one at a time.
   */
  async function addOrFindDestination(
    merchantId: string,
    body: { chain: string; address: string; label?: string | undefined },
  ) {
    const chain = await chainRow(body.chain);
    const address = checkPayoutAddress(chain, body.address);
    const ctx = context();
    return store.writeTransaction(async (trx) => {
      await takeEventCounter(trx, merchantId, store.dialect);
      const live = await destinationsWithNames(trx)
        .where('d.merchant_id', '=', merchantId)
        .where('d.chain_id', '=', chain.id)
        .where('d.address', '=', address)
        .where('d.status', '!=', 'revoked')
        .orderBy('d.created_at', 'desc')
        .execute();
      const existing = live.find((d) => destinationStatus(d, ctx.at) === 'active') ?? live[0];
      if (existing !== undefined) return { created: false, destination: destinationView(existing, ctx.at) };
      const merchant = await trx
        .selectFrom('merchants')
        .select('payout_cooling_off_hours')
        .where('id', '=', merchantId)
        .executeTakeFirstOrThrow();
      const hours = merchant.payout_cooling_off_hours;
      const row = {
        id: newId('dst'),
        merchant_id: merchantId,
        chain_id: chain.id,
        address,
        label: body.label ?? null,
        status: hours > 0 ? 'cooling_off' : 'active',
        active_from: new Date(Date.parse(ctx.at) + hours * HOUR_MS).toISOString(),
        created_at: ctx.at,
        updated_at: ctx.at,
      };
      await trx.insertInto('payout_destinations').values(row).execute();
      const view = destinationView({ ...row, chain_symbol: chain.symbol }, ctx.at);
      await opts.outbox.append(trx, merchantId, 'payout_destination.added', writeExactJson(view), ctx.at);
      return { created: true, destination: view };
    });
  }

  return {
    /** Business counters, added to /metrics by the merchant routes. */
    metrics,
    request,
    move,

    // --- merchants -------------------------------------------------------------------------
    async create(
      merchantId: string,
      body: {
        walletId: string;
        amount: string | number;
        destinationId?: string;
        destination?: string;
        reference?: string;
      },
    ) {
      const payout = await request({
        merchantId,
        walletId: body.walletId,
        amount: String(body.amount),
        destination: { source: 'book', destinationId: body.destinationId, address: body.destination },
        reference: body.reference ?? null,
        refundOf: null,
        by: 'merchant',
      });
      return payoutView(payout);
    },

    async listForMerchant(merchantId: string, filter: { status?: string | undefined }, req: PageRequest) {
      const result = await list({ ...filter, merchantId }, req, 'desc');
      return { items: result.items.map(payoutView), nextCursor: result.nextCursor };
    },

    get: async (merchantId: string, id: string) => payoutView(await owned(merchantId, id)),

    cancel: async (merchantId: string, id: string) =>
      payoutView(await move(id, { move: 'cancel', by: 'merchant', merchantId, reason: 'canceled_by_merchant' })),

    /** Sandbox only (404 otherwise): an approved payout goes through `sent` to the outcome, in one transaction. */
    async simulate(merchantId: string, id: string, outcome: 'completed' | 'failed') {
      if (!opts.sandbox) throw new HostpayError('NOT_FOUND', 'simulate exists only on a sandbox server');
      const result = await store.writeTransaction(async (trx) => {
        const ctx = context();
        await movePayout(trx, ctx, id, { move: 'send', by: 'system', merchantId, txHash: `sim_${newId('tx', 16)}` });
        return movePayout(trx, ctx, id, {
          move: outcome === 'completed' ? 'complete' : 'fail',
          by: 'system',
          merchantId,
          ...(outcome === 'failed' ? { reason: 'simulated_failure' } : {}),
        });
      });
      metrics.movedBy(result);
      await dropWallets(result.walletsOf);
      return payoutView(result.payout);
    },

    /** The destination added, or the live entry of the same address (addOrFindDestination). */
    addOrFindDestination,
    addDestination: async (merchantId: string, body: { chain: string; address: string; label?: string | undefined }) =>
      (await addOrFindDestination(merchantId, body)).destination,

    async listDestinations(merchantId: string, req: PageRequest) {
      const at = context().at;
      const q = destinationsWithNames(db).where('d.merchant_id', '=', merchantId);
      return page(q, 'd.created_at', req, (d) => destinationView(d, at), 'desc');
    },

    revokeDestination: (merchantId: string, id: string) => setDestinationStatus(id, 'revoked', { merchantId }),

    // --- operators -------------------------------------------------------------------------
    async listAll(filter: PayoutFilter, req: PageRequest) {
      const result = await list(filter, req, 'asc');
      return { items: result.items.map(adminPayoutView), nextCursor: result.nextCursor };
    },

    getAny: async (id: string) => adminPayoutView(await owned(undefined, id)),

    approve: async (id: string, audit: AuditContext) =>
      adminPayoutView(await move(id, { move: 'approve', by: 'operator', audit })),

    reject: async (id: string, reason: string, audit: AuditContext) =>
      adminPayoutView(await move(id, { move: 'reject', by: 'operator', reason, audit })),

    cancelAny: async (id: string, audit: AuditContext) =>
      adminPayoutView(await move(id, { move: 'cancel', by: 'operator', reason: 'canceled_by_operator', audit })),

    /** The manual sender: the operator paid it and reports the transaction. */
    markSent: async (id: string, p: { txHash: string; networkFee?: string | undefined }, audit: AuditContext) =>
      adminPayoutView(
        await move(id, {
          move: 'send',
          by: 'operator',
          txHash: p.txHash,
          ...(p.networkFee === undefined ? {} : { networkFee: p.networkFee }),
          audit,
        }),
      ),

    /** The manual sender's confirmation; on a chain with an EVM watcher, the chain confirms instead (409). */
    async complete(id: string, p: { networkFee?: string | undefined }, audit: AuditContext) {
      const found = await owned(undefined, id);
      if (found.row.status === 'sent' && (await watched(found.row.chain_id)))
        throw new HostpayError(
          'PAYOUT_STATE_CONFLICT',
          `payout ${id} is on ${found.row.chain_symbol}, whose watcher verifies the transaction (recipient, asset, amount) before it completes; mark it failed if it will never arrive`,
          { status: found.row.status },
        );
      return adminPayoutView(
        await move(id, {
          move: 'complete',
          by: 'operator',
          ...(p.networkFee === undefined ? {} : { networkFee: p.networkFee }),
          audit,
        }),
      );
    },

    fail: async (id: string, reason: string, audit: AuditContext) =>
      adminPayoutView(await move(id, { move: 'fail', by: 'operator', reason, audit })),

    activateDestination: (id: string, audit: AuditContext) => setDestinationStatus(id, 'active', { audit }),

    async listAllDestinations(
      filter: { merchantId?: string | undefined; status?: string | undefined },
      req: PageRequest,
    ) {
      const at = context().at;
      let q = destinationsWithNames(db);
      if (filter.merchantId !== undefined) q = q.where('d.merchant_id', '=', filter.merchantId);
      if (filter.status !== undefined) q = q.where('d.status', '=', filter.status);
      return page(q, 'd.created_at', req, (d) => ({ ...destinationView(d, at), merchantId: d.merchant_id }));
    },

    ...operatorTools,
  };
}

export type PayoutService = ReturnType<typeof payoutService>;
export type { PayoutActor };
