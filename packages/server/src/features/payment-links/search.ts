import { decimalText } from '@hostpay/protocol';
import { sql } from 'kysely';
import type { RankedHit, SearchSource } from '../reports/search.js';

interface LinkHitRow {
  id: string;
  name: string;
  amount: string | null;
  currency: string;
  active: number;
  created_at: string;
}

const summary = (l: LinkHitRow, matched: string) =>
  `${l.active === 1 ? 'active' : 'inactive'} · ${l.name} · ${l.amount === null ? 'any amount' : decimalText(l.amount)} ${l.currency} · ${matched}`;

/** `LIKE` takes `%`, `_` and the escape character itself literally only when escaped. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The slug of a pasted public URL (`…/l/{slug}`), else the text itself. */
const slugOf = (text: string) => /\/l\/([A-Za-z0-9_-]+)\/?$/.exec(text)?.[1] ?? text;

/**
 * Payment links in the merchant search (spec/commerce.md): by id, by slug (or the public URL
 * holding it) exactly, and by name as a substring ignoring case (on SQLite, ASCII letters' case
 * only: a Greek or Cyrillic part matches as typed). The id and slug are unique
 * indexes; a name is matched within the merchant's own links (`payment_links_merchant`), which
 * a substring cannot narrow further through an index on either store.
 */
export const paymentLinkSource: SearchSource = {
  scope: 'links:read',
  async find(db, merchantId, terms, limit) {
    const mine = db
      .selectFrom('payment_links as l')
      .select(['l.id', 'l.name', 'l.amount', 'l.currency', 'l.active', 'l.created_at'])
      .where('l.merchant_id', '=', merchantId);
    const hits: RankedHit[] = [];
    const add = (rows: LinkHitRow[], matched: string) => {
      for (const l of rows)
        hits.push({ type: 'payment_link', id: l.id, summary: summary(l, matched), createdAt: l.created_at });
    };
    add(await mine.where('l.id', '=', terms.text).limit(limit).execute(), 'link id');
    add(await mine.where('l.slug', '=', slugOf(terms.text)).limit(limit).execute(), 'link address');
    // SQLite's lower() folds ASCII only: a name in another script also matches as typed.
    const folded = `%${likeLiteral(terms.text.toLowerCase())}%`;
    const typed = `%${likeLiteral(terms.text)}%`;
    add(
      await mine
        .where(
          sql<boolean>`(lower(${sql.ref('l.name')}) like ${folded} escape '\\' or ${sql.ref('l.name')} like ${typed} escape '\\')`,
        )
        .orderBy('l.created_at', 'desc')
        .limit(limit)
        .execute(),
      'name',
    );
    return hits;
  },
};
