import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { sql, type Kysely } from 'kysely';
import { maskWebhookUrl } from '../../../outbound/mask-url.js';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v11: account xpubs and webhook URLs sealed at rest. Whoever read an xpub in
 * the store could link every past and future deposit address; a webhook URL may carry the
 * merchant's token. Both columns are renamed to `*_sealed` and, from the first start with the
 * master key on, hold the SecretBox form. This migration needs no master key (`hostpay migrate`
 * runs without one), so it only renames and adds: rows written before it keep their plaintext in
 * the renamed column, with the new columns null, until the services seal them when they open the
 * store with the box (features/master-key/seal-plaintext.ts, run before anything reads them).
 *
 * account_keys: the unique key moves from the text (random once sealed) to `xpub_hash`, a SHA-256
 * of the xpub/tpub spelling, so one key still gets one row and one address counter; the operator
 * views' preview (first 12 and last 6 characters) and BIP-32 fingerprint are kept beside it.
 * webhook_endpoints: `url_shown` is the URL masked (outbound/mask-url.ts), for lists and logs.
 *
 * Copies elsewhere are rewritten here (they need no key): the `chain.set_xpub` audit entries kept
 * the whole key (now its fingerprint and preview, as new entries), and `test.ping` events the
 * whole URL (now masked, as new ones).
 */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('account_keys').renameColumn('xpub', 'xpub_sealed').execute();
  await db.schema.alterTable('account_keys').addColumn('xpub_hash', 'text').execute();
  await db.schema.alterTable('account_keys').addColumn('xpub_preview', 'text').execute();
  await db.schema.alterTable('account_keys').addColumn('xpub_fingerprint', 'text').execute();
  // Rows not sealed yet have a null hash: unique indexes let nulls repeat on both dialects.
  await db.schema
    .createIndex('account_keys_hash')
    .unique()
    .on('account_keys')
    .columns(['family', 'network_type', 'xpub_hash'])
    .execute();
  await db.schema.alterTable('webhook_endpoints').renameColumn('url', 'url_sealed').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('url_shown', 'text').execute();
  await scrubCopies(db);
}

// The store imports no feature: these two are features/catalog/fields.ts's, as of this migration.
const keyFingerprint = (xpub: string): string =>
  Buffer.from(ripemd160(sha256(createBase58check(sha256).decode(xpub).subarray(45, 78))).subarray(0, 4)).toString(
    'hex',
  );
const keyPreview = (xpub: string): string => `${xpub.slice(0, 12)}…${xpub.slice(-6)}`;

/** An audit snapshot of a key as new entries write it (catalog/keys.ts): id, fingerprint, preview. */
function auditedKey(snapshot: Record<string, unknown>): Record<string, unknown> {
  const { xpub, given: _given, ...rest } = snapshot;
  if (typeof xpub !== 'string') return rest;
  let fingerprint: string | null = null;
  try {
    fingerprint = keyFingerprint(xpub);
  } catch {
    // not a key this release can read: the preview is all that is kept
  }
  return { ...rest, fingerprint, preview: keyPreview(xpub) };
}

async function scrubCopies(db: Kysely<unknown>): Promise<void> {
  const audits = await sql<{ id: string; before: string | null; after: string | null }>`
    select id, before, after from audit_log where action = 'chain.set_xpub'`.execute(db);
  const rewrite = (text: string | null) =>
    text === null ? null : JSON.stringify(auditedKey(JSON.parse(text) as Record<string, unknown>));
  for (const a of audits.rows) {
    await sql`update audit_log set before = ${rewrite(a.before)}, after = ${rewrite(a.after)} where id = ${a.id}`.execute(
      db,
    );
  }
  const pings = await sql<{ id: string; data: string }>`select id, data from events where type = 'test.ping'`.execute(
    db,
  );
  for (const p of pings.rows) {
    const data = JSON.parse(p.data) as { object?: { url?: unknown } };
    if (typeof data.object?.url !== 'string') continue;
    data.object.url = maskWebhookUrl(data.object.url);
    await sql`update events set data = ${JSON.stringify(data)} where id = ${p.id}`.execute(db);
  }
}
