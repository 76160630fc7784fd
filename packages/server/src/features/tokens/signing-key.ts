import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';
import { nowIso } from '../../store/ids.js';
import type { Store } from '../../store/store.js';

const NAME = 'token-signing';

/**
 * The key that signs bearer tokens: random, created once per installation and stored sealed
 * like API secrets, so every instance on the same store signs and verifies alike and a
 * master-key rotation re-seals it instead of invalidating every token.
 */
export async function loadTokenSigningKey(store: Store, box: SecretBox): Promise<Buffer> {
  const owner = `server:${NAME}`;
  await store.db
    .insertInto('server_secrets')
    .values({ name: NAME, sealed: box.seal(randomBytes(32), owner), created_at: nowIso() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await store.db
    .selectFrom('server_secrets')
    .select('sealed')
    .where('name', '=', NAME)
    .executeTakeFirstOrThrow();
  return box.open(row.sealed, owner);
}
