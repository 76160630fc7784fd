import { DECIMAL_PATTERN, Decimal, decimalText, ExactNumber, jsonDecimal, type JsonDecimal } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { invalid } from '../../admin/deps.js';
import { DecimalString } from '../../admin/schemas.js';
import type { MerchantTable } from './tables.js';

/**
 * A merchant's payout settings (spec/payouts.md, "Protection against a stolen API key"), set by
 * operators through PATCH /admin/v1/merchants/{id}: kept here so the merchant feature's own
 * fields stay apart from them. The payouts feature reads the columns.
 */
export const MAX_COOLING_OFF_HOURS = 168;
const DECIMAL_RE = new RegExp(DECIMAL_PATTERN);
const ASSET_RE = /^[A-Z0-9]{1,12}$/;

export interface PayoutSettingsChange {
  payoutCoolingOffHours?: number | undefined;
  payoutAutoApproveLimit?: string | undefined;
  payoutDailyLimit?: Record<string, string> | undefined;
}

export interface PayoutSettingsView {
  payoutCoolingOffHours: number;
  payoutAutoApproveLimit: JsonDecimal;
  payoutDailyLimit: Record<string, JsonDecimal>;
}

export const payoutSettingsView = (r: MerchantTable): PayoutSettingsView => ({
  payoutCoolingOffHours: r.payout_cooling_off_hours,
  payoutAutoApproveLimit: jsonDecimal(r.payout_auto_approve_limit),
  payoutDailyLimit: Object.fromEntries(
    Object.entries(JSON.parse(r.payout_daily_limit) as Record<string, string>).map(([k, v]) => [k, jsonDecimal(v)]),
  ),
});

/** The columns a change sets, checked (400 INVALID_BODY naming the field); {} when it names none. */
export function payoutSettingsColumns(
  change: PayoutSettingsChange,
): Partial<Pick<MerchantTable, 'payout_cooling_off_hours' | 'payout_auto_approve_limit' | 'payout_daily_limit'>> {
  const out: ReturnType<typeof payoutSettingsColumns> = {};
  const hours = change.payoutCoolingOffHours;
  if (hours !== undefined) {
    if (!Number.isInteger(hours) || hours < 0 || hours > MAX_COOLING_OFF_HOURS)
      invalid(`payoutCoolingOffHours must be a whole number of hours from 0 to ${MAX_COOLING_OFF_HOURS}, got ${hours}`);
    out.payout_cooling_off_hours = hours;
  }
  if (change.payoutAutoApproveLimit !== undefined) {
    if (!DECIMAL_RE.test(change.payoutAutoApproveLimit))
      invalid(
        `payoutAutoApproveLimit must be a decimal string ≥ 0, got ${JSON.stringify(change.payoutAutoApproveLimit)}`,
      );
    out.payout_auto_approve_limit = decimalText(change.payoutAutoApproveLimit);
  }
  if (change.payoutDailyLimit !== undefined) {
    const limits: Record<string, string> = {};
    for (const [asset, text] of Object.entries(change.payoutDailyLimit)) {
      const symbol = asset.toUpperCase();
      if (!ASSET_RE.test(symbol) || typeof text !== 'string' || !DECIMAL_RE.test(text))
        invalid(
          `payoutDailyLimit must map asset symbols to decimal strings ≥ 0 (e.g. {"USDT": "1000"}), got ${JSON.stringify(asset)}: ${JSON.stringify(text)}`,
        );
      limits[symbol] = decimalText(new Decimal(text));
    }
    out.payout_daily_limit = JSON.stringify(limits);
  }
  return out;
}

/** The PATCH body's payout fields. */
export const PayoutSettingsBody = {
  payoutCoolingOffHours: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_COOLING_OFF_HOURS,
      description: 'hours a new payout destination cools off before it can be paid (0–168, default 24)',
    }),
  ),
  payoutAutoApproveLimit: Type.Optional(
    DecimalString('a payout whose total (in its asset) is at most this is approved without an operator (default 0)'),
  ),
  payoutDailyLimit: Type.Optional(
    Type.Record(Type.String({ pattern: '^[A-Za-z0-9]{1,12}$' }), Type.String({ pattern: DECIMAL_PATTERN }), {
      description:
        'rolling 24 h payout total per asset, e.g. {"USDT": "1000"}; replaces the whole map; an asset not named has no limit',
    }),
  ),
};

/** The merchant view's payout fields. */
export const PayoutSettingsFields = {
  payoutCoolingOffHours: Type.Integer({ description: 'hours a new payout destination cools off (0–168)' }),
  payoutAutoApproveLimit: ExactNumber('payouts with a total up to this are approved without an operator'),
  payoutDailyLimit: Type.Record(Type.String(), ExactNumber('rolling 24 h payout total allowed for this asset')),
};
