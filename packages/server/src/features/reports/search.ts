import { decimalText, parseAmount, type SearchHit } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';

/** A hit before sorting: newest first by `createdAt`. */
export interface RankedHit extends SearchHit {
  createdAt: string;
}

/** What a query can be: the text itself, its spellings as an address or hash, and its amount. */
export interface SearchTerms {
  text: string;
  /** Lower-cased, with and without `0x`: EVM addresses and hashes match case-insensitively, `0x` optional. */
  spellings: string[];
  /** Canonical decimal text (how amounts are stored on SQLite; PostgreSQL compares NUMERIC by value). */
  amount: string | null;
}

export function searchTerms(q: string): SearchTerms {
  const text = q.trim();
  const lower = text.toLowerCase();
  const bare = lower.startsWith('0x') ? lower.slice(2) : lower;
  const spellings = bare === '' ? [lower] : [bare, `0x${bare}`];
  const parsed = parseAmount(text);
  return { text, spellings, amount: parsed.ok ? decimalText(parsed.value) : null };
}

/**
 * Only EVM values (`0x…`) match whatever their case; any other address or hash (base58, bech32,
 * TRON) must match exactly, although the index lookup is case-insensitive.
 */
function sameValue(stored: string, terms: SearchTerms): boolean {
  if (stored.toLowerCase().startsWith('0x')) return terms.spellings.includes(stored.toLowerCase());
  return stored === terms.text || stored === terms.text.replace(/^0x/i, '');
}

/**
 * One kind of object search reads, filtered by the merchant in SQL and gated by its own read
 * scope. Checkouts and payouts are this feature's own (`SEARCH_SOURCES`); a feature that owns
 * another kind (payment links, invoices) contributes its source to the `searchSources` point.
 */
export interface SearchSource {
  scope: string;
  find(db: Db, merchantId: string, terms: SearchTerms, limit: number): Promise<RankedHit[]>;
}

declare module '../../feature-kit/contributions.js' {
  interface ContributionPoints {
    /** The kinds of objects the merchant search reads besides checkouts and payouts (reports/search.ts). */
    searchSources: SearchSource;
  }
}

/** An email address as search compares it: exactly, ignoring case (null when `text` is none). */
export const emailTerm = (terms: SearchTerms): string | null =>
  /^[^\s@]+@[^\s@]+$/.test(terms.text) ? terms.text.toLowerCase() : null;

interface CheckoutHitRow {
  id: string;
  status: string;
  amount: string;
  currency: string;
  order_id: string | null;
  created_at: string;
}

const checkoutSummary = (c: CheckoutHitRow, matched: string) =>
  `${c.status} · ${decimalText(c.amount)} ${c.currency}${c.order_id === null ? '' : ` · order ${c.order_id}`} · ${matched}`;

function checkoutColumns(db: Db) {
  return db
    .selectFrom('checkouts as c')
    .select(['c.id', 'c.status', 'c.amount', 'c.currency', 'c.order_id', 'c.created_at']);
}

export const checkoutSource: SearchSource = {
  scope: 'checkout:read',
  async find(db, merchantId, terms, limit) {
    const hits: RankedHit[] = [];
    const add = (rows: CheckoutHitRow[], matched: string) => {
      for (const c of rows)
        hits.push({ type: 'checkout', id: c.id, summary: checkoutSummary(c, matched), createdAt: c.created_at });
    };
    const mine = checkoutColumns(db).where('c.merchant_id', '=', merchantId);
    add(await mine.where('c.id', '=', terms.text).limit(limit).execute(), 'checkout id');
    add(
      await mine.where('c.order_id', '=', terms.text).orderBy('c.created_at', 'desc').limit(limit).execute(),
      'order id',
    );
    const email = emailTerm(terms);
    if (email !== null)
      add(
        // checkouts_merchant_email_lower (migration 28): (merchant_id, lower(customer_email)).
        await mine
          .where((eb) => eb(eb.fn('lower', ['c.customer_email']), '=', email))
          .orderBy('c.created_at', 'desc')
          .limit(limit)
          .execute(),
        'customer email',
      );
    const byAddress = await mine
      .innerJoin('checkout_options as o', 'o.checkout_id', 'c.id')
      .select('o.address as value')
      .where((eb) => eb(eb.fn('lower', ['o.address']), 'in', terms.spellings))
      .limit(limit)
      .execute();
    add(
      byAddress.filter((r) => sameValue(r.value, terms)),
      'deposit address',
    );
    const byHash = await mine
      .innerJoin('transfers as t', 't.checkout_id', 'c.id')
      .select('t.tx_hash as value')
      .where((eb) => eb(eb.fn('lower', ['t.tx_hash']), 'in', terms.spellings))
      .limit(limit)
      .execute();
    add(
      byHash.filter((r) => sameValue(r.value, terms)),
      'transaction hash',
    );
    if (terms.amount !== null) {
      const amount = terms.amount;
      add(await mine.where('c.amount', '=', amount).orderBy('c.created_at', 'desc').limit(limit).execute(), 'amount');
      add(
        await mine
          .innerJoin('checkout_options as o', 'o.checkout_id', 'c.id')
          .where('o.amount_due', '=', amount)
          .limit(limit)
          .execute(),
        'amount due',
      );
      add(
        await mine
          .innerJoin('transfers as t', 't.checkout_id', 'c.id')
          .where('t.amount', '=', amount)
          .limit(limit)
          .execute(),
        'payment amount',
      );
    }
    return hits;
  },
};

interface PayoutHitRow {
  id: string;
  status: string;
  amount: string;
  asset: string;
  destination: string;
  tx_hash: string | null;
  created_at: string;
}

export const payoutSource: SearchSource = {
  scope: 'payouts:read',
  async find(db, merchantId, terms, limit) {
    const mine = db
      .selectFrom('payouts as p')
      .innerJoin('assets as a', 'a.id', 'p.asset_id')
      .select(['p.id', 'p.status', 'p.amount', 'a.symbol as asset', 'p.destination', 'p.tx_hash', 'p.created_at'])
      .where('p.merchant_id', '=', merchantId);
    const hits: RankedHit[] = [];
    const add = (rows: PayoutHitRow[], matched: string) => {
      for (const p of rows)
        hits.push({
          type: 'payout',
          id: p.id,
          summary: `${p.status} · ${decimalText(p.amount)} ${p.asset} to ${p.destination} · ${matched}`,
          createdAt: p.created_at,
        });
    };
    add(await mine.where('p.id', '=', terms.text).limit(limit).execute(), 'payout id');
    const byAddress = await mine
      .where((eb) => eb(eb.fn('lower', ['p.destination']), 'in', terms.spellings))
      .limit(limit)
      .execute();
    add(
      byAddress.filter((r) => sameValue(r.destination, terms)),
      'destination',
    );
    const byHash = await mine
      .where((eb) => eb(eb.fn('lower', ['p.tx_hash']), 'in', terms.spellings))
      .limit(limit)
      .execute();
    add(
      byHash.filter((r) => r.tx_hash !== null && sameValue(r.tx_hash, terms)),
      'transaction hash',
    );
    if (terms.amount !== null) {
      add(await mine.where('p.amount', '=', terms.amount).limit(limit).execute(), 'amount');
      add(await mine.where('p.total', '=', terms.amount).limit(limit).execute(), 'total');
    }
    return hits;
  },
};

/** Every source the caller may read, merged: one hit per object (its first match), newest first. */
export async function search(
  db: Db,
  merchantId: string,
  sources: readonly SearchSource[],
  q: string,
  limit: number,
): Promise<SearchHit[]> {
  const terms = searchTerms(q);
  const found = (await Promise.all(sources.map((s) => s.find(db, merchantId, terms, limit)))).flat();
  const seen = new Set<string>();
  const unique = found.filter((h) => {
    const key = `${h.type}:${h.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : -1));
  return unique.slice(0, limit).map(({ type, id, summary }) => ({ type, id, summary }));
}
