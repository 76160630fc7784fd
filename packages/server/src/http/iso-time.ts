// Full date and time with seconds and an explicit offset: `2027-01-01` or `2027-01-01T00:00`
// (read by Date.parse in the server's local zone) would mean different instants on different hosts.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** A time input as ISO 8601 in UTC, or null when it is not a full ISO 8601 time with an offset. */
export function isoTime(text: string): string | null {
  if (!ISO_TIME.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export const ISO_TIME_HELP =
  'a full ISO 8601 time with seconds and an offset, e.g. 2027-01-01T00:00:00Z or 2027-01-01T02:00:00+02:00';
