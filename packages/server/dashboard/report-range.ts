/**
 * The Reports page's dates. The page asks for whole UTC days, the last one included; the API
 * takes `from` inclusive and `to` exclusive (RFC 3339), at most 366 days apart (docs/reports.md),
 * so the day after the last one is sent as `to`.
 */
import { t } from './messages.js';

export interface DayRange {
  /** YYYY-MM-DD, the first day. */
  from: string;
  /** YYYY-MM-DD, the last day, included. */
  to: string;
}

const DAY_MS = 86_400_000;
/** The API's longest range (REPORT_MAX_RANGE_DAYS of the protocol, which the bundle does not import). */
export const MAX_RANGE_DAYS = 366;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const utcMs = (date: string) => (DATE.test(date) ? Date.parse(`${date}T00:00:00.000Z`) : Number.NaN);

/** The UTC month `offset` months from the one of `nowMs` (0 this month, -1 last month), first to last day. */
export function monthRange(nowMs: number, offset: number): DayRange {
  const now = new Date(nowMs);
  const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1);
  const last = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset + 1, 0);
  return { from: day(first), to: day(last) };
}

/** YYYY-MM of `nowMs`, UTC. */
export const monthOf = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 7);

export const isMonth = (text: string) => MONTH.test(text);

/** What is wrong with a range, for the page to say before the server would refuse it; undefined when fine. */
export function rangeProblem(range: DayRange): string | undefined {
  const from = utcMs(range.from);
  const to = utcMs(range.to);
  if (Number.isNaN(from) || Number.isNaN(to)) return t('shell.rangeChoose');
  if (to < from) return t('shell.rangeReversed');
  if ((to - from) / DAY_MS + 1 > MAX_RANGE_DAYS) return t('shell.rangeTooLong', { max: MAX_RANGE_DAYS });
  return undefined;
}

/** The API's `from` and `to` of a valid range: 00:00 UTC of the first day and of the day after the last. */
export function rangeQuery(range: DayRange): { from: string; to: string } {
  return { from: `${range.from}T00:00:00Z`, to: `${day(utcMs(range.to) + DAY_MS)}T00:00:00Z` };
}
