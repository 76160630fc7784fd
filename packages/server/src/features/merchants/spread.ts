import { Decimal, decimalText, jsonDecimal, type JsonDecimal } from '@hostpay/protocol';
import { invalid, type AdminDeps } from '../../admin/deps.js';
import { nowIso } from '../../store/ids.js';
import { recordAudit, type AuditContext } from '../audit/service.js';

/** The `pricing_settings` row of the default rate spread (percent, decimal text). */
export const DEFAULT_SPREAD_SETTING = 'rate_spread_percent';
/** A spread is 0 to 10 percent, with at most 4 fractional digits (0.0001 %). */
export const MAX_RATE_SPREAD_PERCENT = '10';
const SPREAD_RE = /^(0|[1-9][0-9]?)(\.[0-9]{1,4})?$/;

/** A spread as operators send it: a decimal string 0..10, stored in canonical text ("1.50" -> "1.5"). */
export function checkSpread(field: string, text: string): string {
  if (!SPREAD_RE.test(text) || new Decimal(text).gt(MAX_RATE_SPREAD_PERCENT)) {
    invalid(
      `${field} must be a decimal string from 0 to ${MAX_RATE_SPREAD_PERCENT} with at most 4 fractional digits (percent, e.g. "1.5"), got ${JSON.stringify(text)}`,
    );
  }
  return decimalText(text);
}

export interface RateSpreadView {
  /** The default spread in percent, applied to every merchant without its own. */
  percent: JsonDecimal;
  /** When an operator last set it; null: never set (0). */
  updatedAt: string | null;
}

/** The default rate spread (the operators' setting): read and set, audited. */
export function spreadAdmin({ store, caches }: AdminDeps) {
  const db = store.db;
  const read = async (trx = db): Promise<RateSpreadView> => {
    const row = await trx
      .selectFrom('pricing_settings')
      .selectAll()
      .where('name', '=', DEFAULT_SPREAD_SETTING)
      .executeTakeFirst();
    return { percent: jsonDecimal(row?.value ?? '0'), updatedAt: row?.updated_at ?? null };
  };
  return {
    getDefaultRateSpread: () => read(),

    async setDefaultRateSpread(percent: string, ctx: AuditContext): Promise<RateSpreadView> {
      const value = checkSpread('percent', percent);
      const at = nowIso();
      const after = await store.writeTransaction(async (trx) => {
        const before = await read(trx);
        await trx
          .insertInto('pricing_settings')
          .values({ name: DEFAULT_SPREAD_SETTING, value, updated_at: at })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: at }))
          .execute();
        const next: RateSpreadView = { percent: jsonDecimal(value), updatedAt: at };
        await recordAudit(trx, ctx, {
          action: 'rate_spread.set',
          objectType: 'rate_spread',
          objectId: 'default',
          before: before.updatedAt === null ? null : before,
          after: next,
        });
        return next;
      });
      // Checkouts keep each merchant's terms (spread included) in a cache the `fees` scope drops.
      await caches.invalidate({ kind: 'fees' });
      return after;
    },
  };
}
