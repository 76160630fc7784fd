import { DECIMAL_PATTERN, Decimal, decimalText, jsonDecimal, type JsonDecimal } from '@hostpay/protocol';
import { newId, nowIso } from '../../store/ids.js';
import type { MerchantTable } from './tables.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { invalid, type AdminDeps } from '../../admin/deps.js';
import { requireMerchantRow } from './queries.js';
import { page, type PageRequest } from '../../admin/pagination.js';
import { checkSpread } from './spread.js';
import {
  payoutSettingsColumns,
  payoutSettingsView,
  type PayoutSettingsChange,
  type PayoutSettingsView,
} from './payout-settings.js';

export interface MerchantView extends PayoutSettingsView {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  underpaymentTolerancePercent: JsonDecimal;
  /** The merchant's own rate spread (percent); null: the operators' default applies. */
  rateSpreadPercent: JsonDecimal | null;
  createdAt: string;
  updatedAt: string;
}

export const merchantView = (r: MerchantTable): MerchantView => ({
  id: r.id,
  name: r.name,
  status: r.status,
  underpaymentTolerancePercent: jsonDecimal(r.underpayment_tolerance_percent),
  rateSpreadPercent: r.rate_spread_percent === null ? null : jsonDecimal(r.rate_spread_percent),
  ...payoutSettingsView(r),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The spec's range for the tolerance (spec/checkout.md, "Tolerance"): 0 to 5 percent. */
export const MAX_UNDERPAYMENT_TOLERANCE_PERCENT = '5';
const DECIMAL_RE = new RegExp(DECIMAL_PATTERN);

/** A tolerance as operators send it: a decimal string 0..5, stored in canonical text ("0.50" -> "0.5"). */
function checkTolerance(text: string): string {
  if (!DECIMAL_RE.test(text) || new Decimal(text).gt(MAX_UNDERPAYMENT_TOLERANCE_PERCENT)) {
    invalid(
      `underpaymentTolerancePercent must be a decimal string from 0 to ${MAX_UNDERPAYMENT_TOLERANCE_PERCENT} (percent, e.g. "0.5"), got ${JSON.stringify(text)}`,
    );
  }
  return decimalText(text);
}

export interface MerchantChange extends PayoutSettingsChange {
  name?: string | undefined;
  status?: 'active' | 'suspended' | undefined;
  /** Percent, 0..5, as a decimal string. */
  underpaymentTolerancePercent?: string | undefined;
  /** Percent, 0..10, as a decimal string; null: back to the default. */
  rateSpreadPercent?: string | null | undefined;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 200) invalid('merchant name must be 1 to 200 characters');
  return trimmed;
}

export function merchantAdmin({ store, caches }: AdminDeps) {
  const db = store.db;
  return {
    async createMerchant(name: string, ctx: AuditContext): Promise<MerchantView> {
      const at = nowIso();
      const row: MerchantTable = {
        id: newId('mer'),
        name: checkName(name),
        status: 'active',
        underpayment_tolerance_percent: '0',
        payout_cooling_off_hours: 24,
        payout_auto_approve_limit: '0',
        payout_daily_limit: '{}',
        created_at: at,
        updated_at: at,
        display_name: null,
        logo_url: null,
        default_success_url: null,
        default_cancel_url: null,
        rate_spread_percent: null,
        legal_name: null,
        address: null,
        tax_id: null,
        support_email: null,
        invoice_prefix: null,
        email_receipts: 1,
        brand_color: null,
        accent_color: null,
        default_language: null,
      };
      await store.writeTransaction(async (trx) => {
        await trx.insertInto('merchants').values(row).execute();
        await recordAudit(trx, ctx, {
          action: 'merchant.create',
          objectType: 'merchant',
          objectId: row.id,
          before: null,
          after: merchantView(row),
        });
      });
      return merchantView(row);
    },

    getMerchant: async (id: string) => merchantView(await requireMerchantRow(db, id)),

    listMerchants: (req: PageRequest & { status?: 'active' | 'suspended' | undefined }) => {
      let q = db.selectFrom('merchants').selectAll();
      if (req.status) q = q.where('status', '=', req.status);
      return page(q, 'created_at', req, merchantView);
    },

    async updateMerchant(id: string, change: MerchantChange, ctx: AuditContext): Promise<MerchantView> {
      // Checked before the transaction: a refused value must not take a write lock.
      const tolerance =
        change.underpaymentTolerancePercent === undefined
          ? undefined
          : checkTolerance(change.underpaymentTolerancePercent);
      const spread =
        change.rateSpreadPercent === undefined || change.rateSpreadPercent === null
          ? change.rateSpreadPercent
          : checkSpread('rateSpreadPercent', change.rateSpreadPercent);
      const payoutColumns = payoutSettingsColumns(change);
      const after = await store.writeTransaction(async (trx) => {
        const before = await requireMerchantRow(trx, id);
        const next: MerchantTable = {
          ...before,
          name: change.name === undefined ? before.name : checkName(change.name),
          status: change.status ?? before.status,
          underpayment_tolerance_percent: tolerance ?? before.underpayment_tolerance_percent,
          rate_spread_percent: spread === undefined ? before.rate_spread_percent : spread,
          ...payoutColumns,
          updated_at: nowIso(),
        };
        await trx
          .updateTable('merchants')
          .set({
            name: next.name,
            status: next.status,
            underpayment_tolerance_percent: next.underpayment_tolerance_percent,
            rate_spread_percent: next.rate_spread_percent,
            ...payoutColumns,
            updated_at: next.updated_at,
          })
          .where('id', '=', id)
          .execute();
        const action =
          change.status && change.status !== before.status
            ? change.status === 'suspended'
              ? 'merchant.suspend'
              : 'merchant.resume'
            : 'merchant.update';
        await recordAudit(trx, ctx, {
          action,
          objectType: 'merchant',
          objectId: id,
          before: merchantView(before),
          after: merchantView(next),
        });
        return next;
      });
      await caches.invalidate({ kind: 'keys' });
      return merchantView(after);
    },
  };
}

export type MerchantAdmin = ReturnType<typeof merchantAdmin>;
