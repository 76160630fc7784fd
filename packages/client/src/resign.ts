import { sleep } from './retry.js';

export interface ResignOptions {
  /** The signer's clock in ms (the local one by default; the client adds its learned offset). */
  now?: () => number;
  /** Aborts the wait for the next second (rejecting with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * Sends a signed write, and signs and sends it again in the next second, once, when the server
 * refuses it with 409 SIGNATURE_REUSED. The server accepts a signed write once, and timestamps are
 * whole seconds, so the same write made twice in one second signs the same; nothing was done
 * then. A refusal after signing anew is the caller's to see. `send` signs with the clock reading
 * it is given. The answer is returned unread (a 409's body is read from a clone), so the caller
 * reads it as any other. Client calls do this themselves; it is for tools that sign their own.
 */
export async function resignOnReuse(
  send: (nowMs: number) => Promise<Response>,
  options: ResignOptions = {},
): Promise<Response> {
  const now = options.now ?? Date.now;
  const first = await send(now());
  if (first.status !== 409 || !(await isSignatureReused(first.clone()))) return first;
  const wait = untilNextSecond(now());
  await (options.signal === undefined
    ? new Promise((resolve) => setTimeout(resolve, wait))
    : sleep(wait, options.signal));
  return send(now());
}

/** Milliseconds until a clock reading `nowMs` gives the next whole-second timestamp. */
function untilNextSecond(nowMs: number): number {
  const ms = nowMs % 1000;
  return 1000 - (ms < 0 ? ms + 1000 : ms) + 5;
}

async function isSignatureReused(res: Response): Promise<boolean> {
  try {
    return ((await res.json()) as { error?: { code?: unknown } }).error?.code === 'SIGNATURE_REUSED';
  } catch {
    return false;
  }
}
