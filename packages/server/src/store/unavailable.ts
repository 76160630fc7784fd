/**
 * Whether an error means "the store cannot answer right now" (503 UNAVAILABLE, retry) rather
 * than a bug (500): a connection that failed, broke or timed out, a database shutting down, or a
 * lock held past the busy timeout.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
// SQLSTATE: 08xxx connection exception; 57P01-03 shutdown / cannot connect now; 53300 too many
// connections; 57014 statement timeout.
const SQLSTATE = /^(08...|57P0[123]|53300|57014)$/;

export function isStoreUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || SQLSTATE.test(code) || code === 'SQLITE_BUSY' || code === 'HOSTPAY_STORE_SILENT')
    return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /timeout exceeded when trying to connect|Query read timeout|Connection terminated|connection timeout|Client has encountered a connection error|Cannot use a pool after calling end|driver has already been destroyed/i.test(
    message,
  );
}

/**
 * Whether an error means "the store answers but is busy" (503 STORE_BUSY with Retry-After): no
 * pooled connection free in time (store/pool-gate.ts), or a transaction that kept losing to
 * others (deadlock or serialization failure after the store's retries, store/retry.ts).
 */
export function isStoreBusy(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return code === 'HOSTPAY_POOL_BUSY' || code === '40001' || code === '40P01';
}
