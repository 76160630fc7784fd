import type { CheckoutService } from './service.js';

/**
 * The expiry timer: every `intervalMs`, expire what is due. Safe with several instances (each
 * checkout changes in its own locked transaction, and a second look finds nothing to do); a
 * restarted server catches up on its first tick, since due checkouts are found by their
 * expiresAt, not by a timer per checkout. Returns the function that stops it.
 */
export function startExpiryTimer(
  checkouts: Pick<CheckoutService, 'expireDue'>,
  intervalMs: number,
  warn: (message: string) => void,
): () => void {
  if (intervalMs <= 0) return () => undefined;
  let running = false;
  let stopped = false;
  let lastWarning = 0;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = true;
    checkouts
      .expireDue()
      .catch((err: unknown) => {
        // A store outage must not flood the log: one line a minute while it lasts.
        if (Date.now() - lastWarning > 60_000) {
          lastWarning = Date.now();
          warn(`checkout expiry failed, retrying every ${intervalMs} ms: ${(err as Error).message}`);
        }
      })
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
