import type { HostpayError } from './errors.js';

/** What a retry delay function is told about the failed attempt. */
export interface RetryInfo {
  /** 0 for the first retry, 1 for the second, ... */
  attempt: number;
  /** The server's `Retry-After`, in milliseconds, when it sent one. */
  retryAfterMs: number | undefined;
  /** The error that is being retried. */
  error: HostpayError;
}

/** Milliseconds to wait before the next attempt. */
export type RetryDelay = (info: RetryInfo) => number;

const RETRY_STATUSES = [429, 502, 503, 504];

/** Network errors, 429, 502, 503 and 504 are retried; any other error is final. */
export function isRetryable(error: HostpayError): boolean {
  return error.code === 'NETWORK_ERROR' || RETRY_STATUSES.includes(error.status);
}

/**
 * The default: `Retry-After` when the server sent it, otherwise exponential backoff
 * (0.5 s, 1 s, 2 s, ... capped at 8 s) with jitter (each wait is 50-100 % of that).
 */
export const defaultRetryDelay: RetryDelay = ({ attempt, retryAfterMs }) =>
  retryAfterMs ?? Math.min(8000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);

/** `Retry-After` as seconds, from either of its forms (delta-seconds or an HTTP date). */
export function parseRetryAfter(header: string | null, nowMs = Date.now()): number | undefined {
  if (header === null) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - nowMs) / 1000);
}

/** Resolves with `promise`, or rejects with the signal's reason as soon as it aborts. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return untilAborted(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), signal).finally(() =>
    clearTimeout(timer),
  );
}
