import type { Kysely } from 'kysely';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Store } from '../../store/store.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { SEALED_COLUMNS } from './sealed-columns.js';

/** The store seen by table and column names only: SEALED_COLUMNS checked them against the schema. */
type Untyped = Kysely<Record<string, Record<string, string | number | null>>>;

/**
 * Re-seals every sealed value (SEALED_COLUMNS: API, server and webhook secrets, webhook URLs,
 * account xpubs, TOTP secrets, node URLs and keys, rate source URLs, hot wallet keys) under the
 * box's current master key. The box must also hold the previous key(s)
 * (HOSTPAY_MASTER_KEY_PREVIOUS) to open the old ones. Each value is re-sealed in its own short
 * transaction, written only if the row still holds the value read, so running servers keep
 * answering; servers that hold both keys open either form, which is what makes the rotation free
 * of downtime. Values already under the current key are skipped, so an interrupted rotation is
 * resumed by running it again.
 */
export async function rotateMasterKey(
  store: Store,
  box: SecretBox,
  ctx: AuditContext,
): Promise<{ resealed: number; alreadyCurrent: number }> {
  let resealed = 0;
  let alreadyCurrent = 0;
  const db = store.db as unknown as Untyped;
  for (const { table, key, column, owner, only } of SEALED_COLUMNS) {
    let rows = db
      .selectFrom(table)
      .select([...key, column])
      .where(column, 'is not', null);
    if (only) rows = rows.where(only.column, '!=', only.not);
    for (const row of await rows.execute()) {
      const old = row[column] as string;
      if (box.isCurrent(old)) {
        alreadyCurrent++;
        continue;
      }
      const ids = Object.fromEntries(key.map((k) => [k, row[k] as string]));
      const sealed = box.seal(box.open(old, owner(ids)), owner(ids));
      await store.writeTransaction((trx) => {
        let update = (trx as unknown as Untyped)
          .updateTable(table)
          .set({ [column]: sealed })
          .where(column, '=', old);
        for (const k of key) update = update.where(k, '=', ids[k]!);
        return update.execute();
      });
      resealed++;
    }
  }
  await store.writeTransaction((trx) =>
    recordAudit(trx, ctx, {
      action: 'master_key.rotate',
      objectType: 'master_key',
      objectId: box.fingerprint,
      before: null,
      after: { resealed, alreadyCurrent },
    }),
  );
  return { resealed, alreadyCurrent };
}
