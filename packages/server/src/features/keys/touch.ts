import { lazyLru } from '../../lazy.js';
import type { Db } from '../../store/store.js';

/**
 * Records that a key was used (`last_used_at`). The time is for operators, to the minute: at most
 * one write per key a minute, off the request path, and a failure costs only that timestamp.
 */
export function keyToucher(db: Db): (keyId: string) => void {
  const lastTouched = lazyLru<string, number>({ max: 10_000 });
  return (keyId) => {
    const now = Date.now();
    if (now - (lastTouched().get(keyId) ?? 0) < 60_000) return;
    lastTouched().set(keyId, now);
    void db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(now).toISOString() })
      .where('id', '=', keyId)
      .execute()
      .catch(() => undefined);
  };
}
