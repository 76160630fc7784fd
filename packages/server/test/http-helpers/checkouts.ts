import type { LightMyRequestResponse } from 'fastify';
import { parseExactJson } from '@hostpay/protocol';
import { readVectorFile } from '../../../protocol/test/vectors.js';
import type { Services } from '../../src/services.js';
import { TRANSITIONS, type CheckoutStatus } from '../../src/features/checkouts/states.js';
import type { HttpFixture, TestKey } from './fixture.js';
import { issueToken, signedHeaders } from './requests.js';
import { sealedKeyColumns } from '../../src/features/catalog/keys.js';

interface AddressVectors {
  chains: { chain: string; network: string; accountXpub: string }[];
}

/**
 * Gives the demo chains the vectors' account keys (test set-up, as an operator's `chain
 * set-xpub` does) and confirmations 1, so checkouts can be created and settle on one report.
 */
export async function configureChains(services: Services, confirmations = 1): Promise<void> {
  const vectors = readVectorFile<AddressVectors>('addresses.json');
  const db = services.store.db;
  for (const symbol of ['BTC', 'ETH', 'TRON']) {
    const v = vectors.chains.find((c) => c.chain === symbol && c.network === 'mainnet')!;
    const chain = await db.selectFrom('chains').selectAll().where('symbol', '=', symbol).executeTakeFirstOrThrow();
    // Demo seeding already sets these keys; a store seeded otherwise gets them here.
    let keyId = chain.account_key_id;
    if (keyId === null) {
      keyId = `akey_${symbol.toLowerCase()}`;
      await db
        .insertInto('account_keys')
        .values({
          id: keyId,
          family: chain.family,
          network_type: 'mainnet',
          // Sealed as the operator API stores it (catalog/keys.ts).
          ...sealedKeyColumns(services.box, keyId, v.accountXpub),
          next_index: 0,
          created_at: new Date().toISOString(),
        })
        .execute();
    }
    await db
      .updateTable('chains')
      .set({ account_key_id: keyId, confirmations_required: confirmations })
      .where('id', '=', chain.id)
      .execute();
  }
  // Written behind the services' back (as the operator API would not): drop what they cached of the catalog.
  await services.caches.invalidate({ kind: 'catalog' });
}

/** A checkout API call with the four headers (fresh token), JSON body signed as sent. */
export async function checkoutCall(
  fx: HttpFixture,
  key: TestKey,
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  token?: string,
): Promise<LightMyRequestResponse> {
  const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const h: Record<string, string> = {
    ...signedHeaders(fx, key, { body: payload, target: { method, url } }),
    authorization: `Bearer ${token ?? (await issueToken(fx, key))}`,
    ...headers,
  };
  if (payload !== '') h['content-type'] = 'application/json';
  return fx.app.inject({ method, url, headers: h, payload });
}

/** The `result` of an answer with exact numbers as strings. */
export function resultOf<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return (parseExactJson(res.body) as { result: T }).result;
}

/** True when the statuses are a walk through the contract's table, starting at open. */
export function isTableWalk(statuses: string[]): boolean {
  if (statuses[0] !== 'open') return false;
  for (let i = 1; i < statuses.length; i++) {
    const from = statuses[i - 1] as CheckoutStatus;
    const to = statuses[i] as CheckoutStatus;
    const ok = TRANSITIONS.some((row) => row.from.includes(from) && possibleTargets(row.event).includes(to));
    if (!ok) return false;
  }
  return true;
}

function possibleTargets(event: string): CheckoutStatus[] {
  switch (event) {
    case 'partial_payment':
      return ['underpaid'];
    case 'threshold_reached':
      return ['processing'];
    case 'confirmed':
      return ['settled'];
    case 'payment_retracted':
      return ['underpaid', 'open'];
    case 'merchant_cancel':
      return ['canceled'];
    case 'expire':
      return ['expired', 'needs_review'];
    case 'late_payment':
      return ['needs_review'];
    case 'wrong_asset':
      return ['needs_review'];
    case 'operator_settle':
      return ['settled'];
    case 'operator_reject':
      return ['invalid'];
    default:
      return [];
  }
}
