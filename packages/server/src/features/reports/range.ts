import { REPORT_MAX_RANGE_DAYS } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import { ISO_TIME_HELP, isoTime } from '../../http/iso-time.js';

const DAY_MS = 86_400_000;

/** A report's time range in UTC ISO text: `from` inclusive, `to` exclusive. */
export interface TimeRange {
  from: string;
  to: string;
}

/**
 * The contract's "Time ranges": RFC 3339 with an offset, 0 < to − from ≤ 366 days, else 400
 * INVALID_QUERY; a `to` after the request is read as now (nothing after now exists yet, and the
 * file name then says what the file holds).
 */
export function readRange(from: string | undefined, to: string | undefined, nowMs: number): TimeRange {
  const f = required('from', from);
  const t = required('to', to);
  const span = Date.parse(t) - Date.parse(f);
  if (span <= 0) throw new HostpayError('INVALID_QUERY', 'to must be after from', { parameter: 'to' });
  if (span > REPORT_MAX_RANGE_DAYS * DAY_MS)
    throw new HostpayError('INVALID_QUERY', `from and to may be at most ${REPORT_MAX_RANGE_DAYS} days apart`, {
      parameter: 'to',
    });
  return { from: f, to: Date.parse(t) > nowMs ? new Date(nowMs).toISOString() : t };
}

function required(name: string, text: string | undefined): string {
  if (text === undefined)
    throw new HostpayError('INVALID_QUERY', `${name} is required: ${ISO_TIME_HELP}`, { parameter: name });
  const at = isoTime(text);
  if (at === null) throw new HostpayError('INVALID_QUERY', `${name} must be ${ISO_TIME_HELP}`, { parameter: name });
  return at;
}

/** `YYYY-MM` (UTC) as the month's range; 400 INVALID_QUERY otherwise. */
export function monthRange(month: string | undefined): TimeRange {
  const m = month === undefined ? null : /^(\d{4})-(\d{2})$/.exec(month);
  const year = m === null ? Number.NaN : Number(m[1]);
  const index = m === null ? Number.NaN : Number(m[2]) - 1;
  if (!(index >= 0 && index <= 11) || year < 1970)
    throw new HostpayError('INVALID_QUERY', 'month must be YYYY-MM (UTC), e.g. 2027-03', { parameter: 'month' });
  return {
    from: new Date(Date.UTC(year, index, 1)).toISOString(),
    to: new Date(Date.UTC(year, index + 1, 1)).toISOString(),
  };
}

/** A time for a file name: ISO 8601 basic format in UTC (`20270301T000000Z`), no characters file systems refuse. */
export function fileTime(iso: string): string {
  return iso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}
