import { DECIMAL_PATTERN, Decimal, decimalText, jsonDecimal, parseAmount } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import { newId, nowIso } from '../../store/ids.js';
import { findSettlementCurrency, upsertFeeTier, upsertSettlementCurrency } from './queries.js';
import type { FeeScheduleTable } from './tables.js';
import type { Db } from '../../store/store.js';
import { feeService } from './preview.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import type { AdminDeps } from '../../admin/deps.js';
import { requireMerchantRow } from '../merchants/queries.js';
import { requireAssetRow } from '../catalog/queries.js';

export interface FeeTierRequest {
  currency: string;
  isPercentage: boolean;
  value: string;
  minValue?: string | undefined;
  onChainFee?: string | undefined;
  fromAmount?: string | undefined;
  /** Also set the settlement (fee) currency of this currency for the same scope. */
  feeCurrency?: string | undefined;
  /** Absent: the operator's default schedule. */
  merchantId?: string | undefined;
}

const DECIMAL_RE = new RegExp(DECIMAL_PATTERN);

const nonNegative = (label: string, text: string): string => {
  if (!DECIMAL_RE.test(text)) {
    throw new HostpayError(
      'INVALID_AMOUNT',
      `${label} must be a decimal number of at least 0 with at most 18 fractional digits, got ${JSON.stringify(text)}`,
    );
  }
  return decimalText(text);
};

export const feeTierView = (r: FeeScheduleTable) => ({
  id: r.id,
  merchantId: r.merchant_id === '' ? null : r.merchant_id,
  currency: r.currency,
  fromAmount: jsonDecimal(r.from_amount),
  isPercentage: r.is_percentage === 1,
  value: jsonDecimal(r.value),
  minValue: jsonDecimal(r.min_value),
  onChainFee: jsonDecimal(r.on_chain_fee),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * The rule setFee enforces, kept when the fee currency changes under existing schedules: their
 * money figures must not be finer than the new currency. Affected are the schedules of this scope
 * and, for the default scope, those of merchants that have no settlement currency of their own.
 */
async function checkSchedulesFit(
  trx: Db,
  merchantId: string,
  currency: string,
  settlement: string,
  precision: number,
): Promise<void> {
  let q = trx.selectFrom('fee_schedules').selectAll().where('currency', '=', currency);
  if (merchantId !== '') q = q.where('merchant_id', '=', merchantId);
  else {
    const own = trx
      .selectFrom('settlement_currencies')
      .select('merchant_id')
      .where('currency', '=', currency)
      .where('merchant_id', '!=', '');
    q = q.where('merchant_id', 'not in', own);
  }
  const tooFine = (await q.execute()).filter((r) =>
    [r.min_value, r.on_chain_fee, ...(r.is_percentage === 1 ? [] : [r.value])].some(
      (text) => new Decimal(text).decimalPlaces() > precision,
    ),
  );
  if (tooFine.length > 0) {
    throw new HostpayError(
      'INVALID_AMOUNT',
      `fee tiers ${tooFine.map((r) => r.id).join(', ')} of ${currency} have money figures with more decimal places than ${settlement} has (${precision}): change those tiers first, or choose another settlement currency`,
      { tiers: tooFine.map((r) => r.id) },
    );
  }
}

/** `now`: the clock a rate's age is judged by (tests move it); undefined: Date.now. */
export function feeAdmin({ store, caches, now = Date.now }: AdminDeps & { now?: (() => number) | undefined }) {
  const db = store.db;
  const preview = feeService(db, caches);

  async function scope(merchantId: string | undefined): Promise<string> {
    if (merchantId === undefined || merchantId === '') return '';
    await requireMerchantRow(db, merchantId);
    return merchantId;
  }

  /** Every fee write ends here: fee caches are dropped once the transaction has committed. */
  async function write<T>(fn: Parameters<typeof store.writeTransaction<T>>[0]): Promise<T> {
    const result = await store.writeTransaction(fn);
    await caches.invalidate({ kind: 'fees' });
    return result;
  }

  return {
    async setFee(req: FeeTierRequest, ctx: AuditContext) {
      const currency = (await requireAssetRow(db, req.currency)).symbol;
      const merchantId = await scope(req.merchantId);
      const feeCurrency =
        req.feeCurrency === undefined ? undefined : (await requireAssetRow(db, req.feeCurrency)).symbol;
      const value = nonNegative('fee value', req.value);
      if (req.isPercentage && new Decimal(value).gt(100))
        throw new HostpayError('INVALID_AMOUNT', 'a percentage fee must be at most 100');
      // Money figures are in the fee currency and cannot be finer than it: a fee of 0.001 EUR
      // could never be charged, and the preview would round it away.
      const charged = feeCurrency ?? (await findSettlementCurrency(db, merchantId, currency)) ?? currency;
      const precision = (await requireAssetRow(db, charged)).decimals;
      const money = [
        ['minimum', req.minValue],
        ['on-chain fee', req.onChainFee],
        ...(req.isPercentage ? [] : [['fixed fee', req.value]]),
      ] as const;
      for (const [label, text] of money) {
        if (text !== undefined && new Decimal(nonNegative(label, text)).decimalPlaces() > precision) {
          throw new HostpayError(
            'INVALID_AMOUNT',
            `${label} ${text} has more decimal places than ${charged}, the currency fees are charged in, has (${precision})`,
          );
        }
      }
      const at = nowIso();
      const fromAmount = nonNegative('from-amount', req.fromAmount ?? '0');
      const row: FeeScheduleTable = {
        id: newId('fee'),
        merchant_id: merchantId,
        currency,
        from_amount: fromAmount,
        is_percentage: req.isPercentage ? 1 : 0,
        value,
        min_value: nonNegative('minimum', req.minValue ?? '0'),
        on_chain_fee: nonNegative('on-chain fee', req.onChainFee ?? '0'),
        created_at: at,
        updated_at: at,
      };
      // Only `trx` inside: the SQLite store has one connection, which the transaction holds.
      return write(async (trx) => {
        const before = await trx
          .selectFrom('fee_schedules')
          .selectAll()
          .where('merchant_id', '=', merchantId)
          .where('currency', '=', currency)
          .where('from_amount', '=', fromAmount)
          .executeTakeFirst();
        await upsertFeeTier(trx, row);
        // Changing the fee currency here must not leave the scope's other tiers finer than it.
        if (feeCurrency !== undefined) await checkSchedulesFit(trx, merchantId, currency, feeCurrency, precision);
        if (feeCurrency !== undefined) await upsertSettlementCurrency(trx, merchantId, currency, feeCurrency, at);
        const after = await trx
          .selectFrom('fee_schedules')
          .selectAll()
          .where('merchant_id', '=', merchantId)
          .where('currency', '=', currency)
          .where('from_amount', '=', fromAmount)
          .executeTakeFirstOrThrow();
        await recordAudit(trx, ctx, {
          action: 'fee.set',
          objectType: 'fee_schedule',
          objectId: after.id,
          before: before ? feeTierView(before) : null,
          after: { ...feeTierView(after), feeCurrency },
        });
        return feeTierView(after);
      });
    },

    deleteFeeTier: (id: string, ctx: AuditContext) =>
      write(async (trx) => {
        const before = await trx.selectFrom('fee_schedules').selectAll().where('id', '=', id).executeTakeFirst();
        if (!before) throw new HostpayError('NOT_FOUND', `fee tier ${id} does not exist`);
        await trx.deleteFrom('fee_schedules').where('id', '=', id).execute();
        await recordAudit(trx, ctx, {
          action: 'fee.delete',
          objectType: 'fee_schedule',
          objectId: id,
          before: feeTierView(before),
          after: null,
        });
      }),

    async listFees(filter: { merchantId?: string | undefined; currency?: string | undefined }) {
      let q = db.selectFrom('fee_schedules').selectAll();
      if (filter.merchantId !== undefined) q = q.where('merchant_id', '=', filter.merchantId);
      if (filter.currency) q = q.where('currency', '=', filter.currency.toUpperCase());
      const rows = await q.orderBy('merchant_id').orderBy('currency').execute();
      return rows
        .sort(
          (a, b) =>
            a.merchant_id.localeCompare(b.merchant_id) ||
            a.currency.localeCompare(b.currency) ||
            new Decimal(a.from_amount).comparedTo(b.from_amount),
        )
        .map(feeTierView);
    },

    async setSettlementCurrency(
      req: { currency: string; settlementCurrency: string; merchantId?: string | undefined },
      ctx: AuditContext,
    ) {
      const currency = (await requireAssetRow(db, req.currency)).symbol;
      const settlement = (await requireAssetRow(db, req.settlementCurrency)).symbol;
      const merchantId = await scope(req.merchantId);
      const precision = (await requireAssetRow(db, settlement)).decimals;
      return write(async (trx) => {
        await checkSchedulesFit(trx, merchantId, currency, settlement, precision);
        const previous = await trx
          .selectFrom('settlement_currencies')
          .select('settlement_currency')
          .where('merchant_id', '=', merchantId)
          .where('currency', '=', currency)
          .executeTakeFirst();
        await upsertSettlementCurrency(trx, merchantId, currency, settlement, nowIso());
        const before = previous === undefined ? null : { currency, settlementCurrency: previous.settlement_currency };
        await recordAudit(trx, ctx, {
          action: 'settlement.set',
          objectType: 'settlement_currency',
          objectId: `${merchantId || 'default'}:${currency}`,
          before,
          after: { currency, settlementCurrency: settlement },
        });
        return { merchantId: merchantId || null, currency, settlementCurrency: settlement };
      });
    },

    async listSettlementCurrencies() {
      const rows = await db
        .selectFrom('settlement_currencies')
        .selectAll()
        .orderBy('merchant_id')
        .orderBy('currency')
        .execute();
      return rows.map((r) => ({
        merchantId: r.merchant_id === '' ? null : r.merchant_id,
        currency: r.currency,
        settlementCurrency: r.settlement_currency,
        updatedAt: r.updated_at,
      }));
    },

    /** Which schedule and tier would apply for a merchant, currency and amount, with the quote. */
    async operatorPreview(merchantId: string, currency: string, amount: string) {
      await requireMerchantRow(db, merchantId);
      const parsed = parseAmount(amount);
      if (!parsed.ok) throw new HostpayError('INVALID_AMOUNT', `amount ${parsed.reason}`);
      return preview.preview(merchantId, parsed.value, currency.toUpperCase(), now());
    },
  };
}

export type FeeAdmin = ReturnType<typeof feeAdmin>;
