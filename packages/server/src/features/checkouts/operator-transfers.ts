import { decimalText, jsonDecimal } from '@hostpay/protocol';
import { page, type PageRequest } from '../../admin/pagination.js';
import type { TransferTable } from './tables.js';
import type { Db } from '../../store/store.js';
import { type AuditContext, recordAudit } from '../audit/service.js';
import type { EngineContext, EvaluateResult } from './engine.js';
import type { LoadedCheckout } from './queries.js';
import {
  attachTransfer,
  type ReportOutcome,
  reportTransfer,
  retractTransfer,
  type TransferReport,
  transferView,
} from './transfers.js';
import type { checkoutView } from './view.js';

export interface TransferOperationsContext {
  db: Db;
  /** Runs a change in one write transaction, then drops the wallet caches of a merchant it credited. */
  applyChange: <T extends { evaluation?: EvaluateResult | null }>(
    fn: (trx: Db, ctx: EngineContext) => Promise<T>,
  ) => Promise<T>;
  view: (c: LoadedCheckout) => ReturnType<typeof checkoutView>;
}

/**
 * The operator's side of transfers (report, retract, attach to a checkout, list): each change
 * goes through the engine with the checkout it moves, and is audited with the before and after.
 */
export function transferOperations({ db, applyChange, view }: TransferOperationsContext) {
  /**
   * What the audit log keeps of a transfer and of the checkout it moved: the transfer's counting
   * facts, and the checkout's status before and after with the posting a settlement credited.
   */
  const transferAudit = (t: TransferTable, evaluation: EvaluateResult | null) => {
    const moved = evaluation !== null && evaluation.moves.length > 0 ? evaluation : null;
    const timeline = moved?.checkout.timeline ?? [];
    return {
      chainId: t.chain_id,
      txHash: t.tx_hash,
      index: t.log_index,
      toAddress: t.to_address,
      assetId: t.asset_id,
      amount: jsonDecimal(decimalText(t.amount)),
      confirmations: t.confirmations,
      retracted: t.retracted === 1,
      checkoutId: t.checkout_id,
      exception: t.exception,
      ...(moved === null
        ? {}
        : {
            checkout: {
              from: timeline[timeline.length - moved.moves.length - 1]?.status ?? null,
              moves: moved.moves,
              status: moved.checkout.row.status,
              creditedPostingId: moved.checkout.row.credited_posting_id,
            },
          }),
    };
  };

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
    /** `audit`: the operator (or `chain-watch`) reporting it; every report that changes something is audited. */
    async reportTransfer(report: TransferReport, audit: AuditContext) {
      const result = await applyChange(async (trx, ctx) => {
        const before = await trx
          .selectFrom('transfers as t')
          .innerJoin('chains as c', 'c.id', 't.chain_id')
          .selectAll('t')
          .where('c.symbol', '=', report.chain.toUpperCase())
          .where('t.tx_hash', '=', report.txHash)
          .where('t.log_index', '=', report.index)
          .executeTakeFirst();
        const r = await reportTransfer(trx, report, ctx);
        // A repeat that changed nothing (same confirmations) wrote nothing: no entry.
        if (r.created || r.transfer.updated_at !== before?.updated_at)
          await recordAudit(trx, audit, {
            action: 'transfer.report',
            objectType: 'transfer',
            objectId: r.transfer.id,
            before: before === undefined ? null : transferAudit(before, null),
            after: transferAudit(r.transfer, r.evaluation),
          });
        return r;
      });
      return {
        created: result.created,
        ...outcome(result, await symbolsOf(result.transfer.chain_id, result.transfer.asset_id)),
      };
    },

    async retractTransfer(id: string, audit: AuditContext) {
      const result = await applyChange(async (trx, ctx) => {
        const before = await trx.selectFrom('transfers').selectAll().where('id', '=', id).executeTakeFirst();
        const r = await retractTransfer(trx, id, ctx);
        if (before !== undefined && before.retracted === 0)
          await recordAudit(trx, audit, {
            action: 'transfer.retract',
            objectType: 'transfer',
            objectId: id,
            before: transferAudit(before, null),
            after: transferAudit(r.transfer, r.evaluation),
          });
        return r;
      });
      return outcome(result, await symbolsOf(result.transfer.chain_id, result.transfer.asset_id));
    },

    async attachTransfer(id: string, checkoutId: string, audit: AuditContext) {
      const result = await applyChange(async (trx, ctx) => {
        const before = await trx.selectFrom('transfers').selectAll().where('id', '=', id).executeTakeFirst();
        const r = await attachTransfer(trx, id, checkoutId, ctx);
        await recordAudit(trx, audit, {
          action: 'transfer.attach',
          objectType: 'transfer',
          objectId: id,
          before: before === undefined ? null : transferAudit(before, null),
          after: transferAudit(r.transfer, r.evaluation),
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
  };
}
