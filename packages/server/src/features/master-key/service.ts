import type { SecretBox } from '../../crypto/secret-box.js';
import type { Store } from '../../store/store.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { apiKeyOwner, rpcOwner } from '../chain-watch/node-url.js';
import { accountKeyOwner } from '../addresses/sealed-key.js';
import { hotWalletOwner } from '../hot-wallet/key.js';
import { urlOwner } from '../webhooks/service.js';
import { sourceOwner } from '../rates/source-url.js';

/**
 * Re-seals every sealed value (API, server and webhook secrets, webhook URLs, account xpubs, EVM
 * node URLs, rate source URLs, hot wallet keys) under the box's
 * current master key. The box must also hold the previous key(s) (HOSTPAY_MASTER_KEY_PREVIOUS) to
 * open the old ones. Each row is
 * re-sealed in its own short transaction, so running servers keep answering; servers that hold
 * both keys open either form, which is what makes the rotation free of downtime.
 */
export async function rotateMasterKey(
  store: Store,
  box: SecretBox,
  ctx: AuditContext,
): Promise<{ resealed: number; alreadyCurrent: number }> {
  let resealed = 0;
  let alreadyCurrent = 0;
  const keys = await store.db.selectFrom('api_keys').select(['id', 'secret_sealed']).execute();
  const secrets = await store.db.selectFrom('server_secrets').select(['name', 'sealed']).execute();
  for (const k of keys) {
    if (box.isCurrent(k.secret_sealed)) {
      alreadyCurrent++;
      continue;
    }
    const sealed = box.seal(box.open(k.secret_sealed, k.id), k.id);
    await store.writeTransaction((trx) =>
      trx
        .updateTable('api_keys')
        .set({ secret_sealed: sealed })
        .where('id', '=', k.id)
        .where('secret_sealed', '=', k.secret_sealed)
        .execute(),
    );
    resealed++;
  }
  for (const s of secrets) {
    if (box.isCurrent(s.sealed)) {
      alreadyCurrent++;
      continue;
    }
    const sealed = box.seal(box.open(s.sealed, `server:${s.name}`), `server:${s.name}`);
    await store.writeTransaction((trx) =>
      trx.updateTable('server_secrets').set({ sealed }).where('name', '=', s.name).execute(),
    );
    resealed++;
  }
  // Stored admin answers (idempotent replays) can hold a new API secret, so they are sealed too.
  const answers = await store.db
    .selectFrom('admin_idempotency')
    .select(['operator', 'key', 'body'])
    .where('status', '!=', 0)
    .execute();
  for (const a of answers) {
    if (box.isCurrent(a.body)) {
      alreadyCurrent++;
      continue;
    }
    const owner = `idempotency:${a.operator}:${a.key}`;
    const sealed = box.seal(box.open(a.body, owner), owner);
    await store.writeTransaction((trx) =>
      trx
        .updateTable('admin_idempotency')
        .set({ body: sealed })
        .where('operator', '=', a.operator)
        .where('key', '=', a.key)
        .where('body', '=', a.body)
        .execute(),
    );
    resealed++;
  }
  // Webhook endpoint secrets (current and, while a rotation overlaps, previous) and URLs.
  const endpoints = await store.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'secret_sealed', 'previous_secret_sealed', 'url_sealed'])
    .execute();
  for (const e of endpoints) {
    for (const [column, owner] of [
      ['secret_sealed', `webhook:${e.id}`],
      ['previous_secret_sealed', `webhook-previous:${e.id}`],
      ['url_sealed', urlOwner(e.id)],
    ] as const) {
      const sealed = e[column];
      if (sealed === null) continue;
      if (box.isCurrent(sealed)) {
        alreadyCurrent++;
        continue;
      }
      const resealedText = box.seal(box.open(sealed, owner), owner);
      await store.writeTransaction((trx) =>
        trx
          .updateTable('webhook_endpoints')
          .set({ [column]: resealedText })
          .where('id', '=', e.id)
          .where(column, '=', sealed)
          .execute(),
      );
      resealed++;
    }
  }
  // Account xpubs (whoever holds one links every deposit address of its chains).
  const accountKeys = await store.db.selectFrom('account_keys').select(['id', 'xpub_sealed']).execute();
  for (const k of accountKeys) {
    if (box.isCurrent(k.xpub_sealed)) {
      alreadyCurrent++;
      continue;
    }
    const owner = accountKeyOwner(k.id);
    const sealed = box.seal(box.open(k.xpub_sealed, owner), owner);
    await store.writeTransaction((trx) =>
      trx
        .updateTable('account_keys')
        .set({ xpub_sealed: sealed })
        .where('id', '=', k.id)
        .where('xpub_sealed', '=', k.xpub_sealed)
        .execute(),
    );
    resealed++;
  }
  // Chain watch node URLs (they carry the provider's key) and API keys.
  const watches = await store.db
    .selectFrom('chain_watches')
    .select(['chain_id', 'rpc_url_sealed', 'api_key_sealed'])
    .execute();
  for (const w of watches) {
    const cols = [
      { column: 'rpc_url_sealed', value: w.rpc_url_sealed, owner: rpcOwner(w.chain_id) },
      { column: 'api_key_sealed', value: w.api_key_sealed, owner: apiKeyOwner(w.chain_id) },
    ] as const;
    for (const c of cols) {
      if (c.value === null) continue;
      if (box.isCurrent(c.value)) {
        alreadyCurrent++;
        continue;
      }
      const sealed = box.seal(box.open(c.value, c.owner), c.owner);
      await store.writeTransaction((trx) =>
        trx
          .updateTable('chain_watches')
          .set({ [c.column]: sealed })
          .where('chain_id', '=', w.chain_id)
          .where(c.column, '=', c.value)
          .execute(),
      );
      resealed++;
    }
  }
  // Rate source URLs (a self-hosted proxy's may carry a key).
  const sources = await store.db
    .selectFrom('rate_sources')
    .select(['id', 'base_url_sealed'])
    .where('base_url_sealed', 'is not', null)
    .execute();
  for (const r of sources) {
    const old = r.base_url_sealed!;
    if (box.isCurrent(old)) {
      alreadyCurrent++;
      continue;
    }
    const owner = sourceOwner(r.id);
    const sealed = box.seal(box.open(old, owner), owner);
    await store.writeTransaction((trx) =>
      trx
        .updateTable('rate_sources')
        .set({ base_url_sealed: sealed })
        .where('id', '=', r.id)
        .where('base_url_sealed', '=', old)
        .execute(),
    );
    resealed++;
  }
  // EVM hot wallet keys (they spend).
  const hotWallets = await store.db.selectFrom('hot_wallets').select(['chain_id', 'key_sealed']).execute();
  for (const h of hotWallets) {
    if (box.isCurrent(h.key_sealed)) {
      alreadyCurrent++;
      continue;
    }
    const owner = hotWalletOwner(h.chain_id);
    const sealed = box.seal(box.open(h.key_sealed, owner), owner);
    await store.writeTransaction((trx) =>
      trx
        .updateTable('hot_wallets')
        .set({ key_sealed: sealed })
        .where('chain_id', '=', h.chain_id)
        .where('key_sealed', '=', h.key_sealed)
        .execute(),
    );
    resealed++;
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
