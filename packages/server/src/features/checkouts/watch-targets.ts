import type { Db } from '../../store/store.js';

const WEEK_MS = 7 * 24 * 3600 * 1000;

export interface Targets {
  /** Lower-case 0x addresses of live deposit addresses on the chain. */
  addresses: Set<string>;
  /** How deep the watcher follows a transfer: the most confirmations any of them needs. */
  depth: number;
}

/**
 * The deposit addresses worth watching: every checkout waiting for money (open, underpaid,
 * processing), and any other changed within a week (a late payment to an expired or canceled
 * checkout, an extra one to a settled checkout: shown to operators). Older ones drop out, so the
 * list does not grow with the shop's history.
 */
export async function liveTargets(
  db: Db,
  chainId: string,
  chainConfirmations: number,
  nowMs: number,
): Promise<Targets> {
  const since = new Date(nowMs - WEEK_MS).toISOString();
  const rows = await db
    .selectFrom('checkout_options as o')
    .innerJoin('checkouts as k', 'k.id', 'o.checkout_id')
    .select(['o.address', 'o.confirmations_required'])
    .where('o.chain_id', '=', chainId)
    .where((eb) => eb.or([eb('k.status', 'in', ['open', 'underpaid', 'processing']), eb('k.updated_at', '>=', since)]))
    .execute();
  let depth = chainConfirmations;
  const addresses = new Set<string>();
  for (const r of rows) {
    addresses.add(r.address.toLowerCase());
    if (r.confirmations_required > depth) depth = r.confirmations_required;
  }
  return { addresses, depth };
}
