import { DECIMAL_FIELDS } from '@hostpay/client';
import { JsonDecimal, jsonDecimal } from '@hostpay/protocol';

/**
 * Exact numbers between the admin services / API and the CLI. The server writes decimals as
 * JSON number literals (JsonDecimal in-process); the backend interface carries them as exact
 * strings, and `--json` writes them back as number literals, digit for digit.
 */

/** Whole numbers that are counts or limits, not amounts: plain numbers in the backend types. */
const INTEGER_FIELDS = new Set([
  'rateLimitPerMinute',
  'resealed',
  'alreadyCurrent',
  'precision',
  'confirmationsRequired',
  'nextIndex',
  'index',
  'confirmations',
  'payoutCoolingOffHours',
]);
/** Decimal fields of admin objects: the merchant API's, plus a posting's balances after it and a merchant's tolerance. */
const DECIMALS = new Set<string>([
  ...DECIMAL_FIELDS,
  'amountAfter',
  'freezeAmountAfter',
  'underpaymentTolerancePercent',
  'payoutAutoApproveLimit',
]);
/** Objects whose every value is a decimal (keyed by asset): a merchant's rolling 24 h payout limits, a reconciliation's sums. */
const DECIMAL_MAPS = new Set(['payoutDailyLimit', 'amounts']);
/** Audit snapshots hold any JSON: left as they are, never reinterpreted by field name. */
const OPAQUE_FIELDS = new Set(['before', 'after']);
const NUMBER_LITERAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * A service or API result in the backend types: JsonDecimal values become their exact text
 * (counts become numbers); audit snapshots keep JsonDecimal so they print exactly as well.
 */
export function fromWire(value: unknown, key = ''): unknown {
  if (value instanceof JsonDecimal) return INTEGER_FIELDS.has(key) ? Number(value.text) : value.text;
  if (Array.isArray(value)) return value.map((item) => fromWire(item));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, OPAQUE_FIELDS.has(k) ? v : fromWire(v, k)]));
  }
  return value;
}

/** The value for `--json`: decimal fields become JSON number literals again. */
export function toJsonOutput(value: unknown, key = ''): unknown {
  if (typeof value === 'string' && DECIMALS.has(key) && NUMBER_LITERAL.test(value)) return jsonDecimal(value);
  if (DECIMAL_MAPS.has(key) && isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, typeof v === 'string' && NUMBER_LITERAL.test(v) ? jsonDecimal(v) : v]),
    );
  }
  if (Array.isArray(value)) return value.map((item) => toJsonOutput(item));
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, OPAQUE_FIELDS.has(k) ? v : toJsonOutput(v, k)]),
    );
  }
  return value;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !(value instanceof JsonDecimal) && !(value instanceof Date);
