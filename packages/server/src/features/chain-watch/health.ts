import { scrubMessage } from './node-url.js';
import type { LiveStatus } from './view.js';

/** An error message with the node's URL and API key masked out. */
export function masked(raw: string, secrets: { url: string; apiKey: string | undefined }): string {
  const message = scrubMessage(raw, secrets.url);
  return secrets.apiKey !== undefined && secrets.apiKey.length >= 4
    ? message.split(secrets.apiKey).join('***')
    : message;
}

/**
 * A chain's status after a failed round. Rounds failed in a row count from the store's figure (the
 * lease holder's before this one), whatever failed. A node error shows at once (`error`); blocks
 * that do not link up ("the chain moved") happen during any reorganisation and show only past the
 * threshold. Past it, whatever failed: `failing`, with the count in the last error. `shown`: the
 * last error to store, if it changes.
 */
export function afterFailure(
  live: LiveStatus,
  stored: number,
  failure: { message: string; moved: boolean },
  failingAfter: number,
): { live: LiveStatus; shown: string | undefined } {
  const { message, moved } = failure;
  const rounds = stored + 1;
  const failing = rounds >= failingAfter;
  const shown = failing ? `${message} (${rounds} rounds in a row failed)` : moved ? undefined : message;
  return {
    live: {
      state: failing ? 'failing' : moved && live.state !== 'error' ? 'watching' : 'error',
      leader: true,
      lastError: shown ?? live.lastError,
      consecutiveErrors: moved ? live.consecutiveErrors : live.consecutiveErrors + 1,
      failedRounds: rounds,
    },
    shown,
  };
}
