import { createHash } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';

/** What opening a sealed account key needs of the box (tests pass the box itself). */
export type KeyOpener = Pick<SecretBox, 'open'>;

/** Who a sealed xpub belongs to: the box binds it to its account_keys row. */
export const accountKeyOwner = (id: string) => `account_key:${id}`;

/**
 * The unique lookup of an account key (one key, one row, one counter) now that the stored text is
 * sealed with a random IV. A plain SHA-256: it tells nothing of the key (an xpub has the entropy
 * of its public key and chain code, so it cannot be guessed from the hash), only confirms a key
 * one already holds; unkeyed, so a master-key rotation leaves it alone.
 */
export const xpubHash = (xpub: string): string =>
  createHash('sha256').update('hostpay account key\0').update(xpub).digest('hex');

/** The xpub/tpub text of a stored key. */
export const openXpub = (box: KeyOpener, id: string, sealed: string): string =>
  box.open(sealed, accountKeyOwner(id)).toString('utf8');
