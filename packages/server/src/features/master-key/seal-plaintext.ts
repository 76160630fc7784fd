import type { SecretBox } from '../../crypto/secret-box.js';
import type { Store } from '../../store/store.js';
import { sealedKeyColumns } from '../catalog/keys.js';
import { urlColumns } from '../webhooks/service.js';

/**
 * Seals the account xpubs and webhook URLs an earlier release stored in plain text. Migration 011
 * renamed their columns to `*_sealed` without sealing (`hostpay migrate` has no master key); the
 * services run this with the box when they open the store, before anything reads those columns,
 * so a running server only ever sees sealed values. A row is known plain by its null
 * `xpub_hash` / `url_shown` (written together with the sealed text), and is sealed in a short
 * transaction of its own under the same condition, so instances starting together seal it once.
 */
export async function sealPlaintextColumns(
  store: Store,
  box: SecretBox,
): Promise<{ accountKeys: number; webhookUrls: number }> {
  let accountKeys = 0;
  let webhookUrls = 0;
  const keys = await store.db
    .selectFrom('account_keys')
    .select(['id', 'xpub_sealed'])
    .where('xpub_hash', 'is', null)
    .execute();
  for (const k of keys) {
    const r = await store.writeTransaction((trx) =>
      trx
        .updateTable('account_keys')
        .set(sealedKeyColumns(box, k.id, k.xpub_sealed))
        .where('id', '=', k.id)
        .where('xpub_hash', 'is', null)
        .where('xpub_sealed', '=', k.xpub_sealed)
        .executeTakeFirst(),
    );
    accountKeys += Number(r.numUpdatedRows ?? 0n);
  }
  const endpoints = await store.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url_sealed'])
    .where('url_shown', 'is', null)
    .execute();
  for (const e of endpoints) {
    const r = await store.writeTransaction((trx) =>
      trx
        .updateTable('webhook_endpoints')
        .set(urlColumns(box, e.id, e.url_sealed))
        .where('id', '=', e.id)
        .where('url_shown', 'is', null)
        .where('url_sealed', '=', e.url_sealed)
        .executeTakeFirst(),
    );
    webhookUrls += Number(r.numUpdatedRows ?? 0n);
  }
  return { accountKeys, webhookUrls };
}
