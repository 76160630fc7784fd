import type { Db } from '../../store/store.js';

/**
 * The checkout statuses a use of a link is counted in besides `settled`: checkouts a payer may
 * still pay (open, underpaid, processing) and those in review, which an operator may still settle.
 * Expired, canceled and invalid checkouts free their use.
 */
export const LIVE_STATUSES = ['open', 'underpaid', 'processing', 'needs_review'] as const;

/** Per link: `uses`, its settled checkouts, and `taken`, settled plus live (what maxUses limits). */
export interface LinkCounts {
  uses: number;
  taken: number;
}

/** The counts of each link in `ids` (absent: none), from one grouped read. */
export async function countsOf(db: Db, ids: readonly string[]): Promise<Map<string, LinkCounts>> {
  const out = new Map<string, LinkCounts>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('checkouts')
    .select(['payment_link_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('payment_link_id', 'in', ids)
    .where('status', 'in', ['settled', ...LIVE_STATUSES] as never[])
    .groupBy(['payment_link_id', 'status'])
    .execute();
  for (const r of rows) {
    const c = out.get(r.payment_link_id!) ?? { uses: 0, taken: 0 };
    c.taken += Number(r.n);
    if (r.status === 'settled') c.uses += Number(r.n);
    out.set(r.payment_link_id!, c);
  }
  return out;
}

export const NO_COUNTS: LinkCounts = { uses: 0, taken: 0 };
