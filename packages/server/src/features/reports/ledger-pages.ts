import { sql } from 'kysely';
import type { ReportRow } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';
import type { Cursor, Page, PageRequest } from './page.js';
import type { TimeRange } from './range.js';

export interface WalletInfo {
  id: string;
  merchant_id: string;
  asset: string;
  chain: string;
}

/** The merchant's wallets (every merchant's when null), with their asset and chain symbols. */
export function listWallets(db: Db, merchantId: string | null): Promise<WalletInfo[]> {
  let q = db
    .selectFrom('wallets as w')
    .innerJoin('assets as a', 'a.id', 'w.asset_id')
    .innerJoin('chains as c', 'c.id', 'w.chain_id')
    .select(['w.id', 'w.merchant_id', 'a.symbol as asset', 'c.symbol as chain']);
  if (merchantId !== null) q = q.where('w.merchant_id', '=', merchantId);
  return q.orderBy('w.id').execute();
}

const ISO_TEXT = sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface PostingRow {
  id: string;
  wallet_id: string;
  kind: string;
  amount: string;
  idempotency_key: string;
  amount_after: string;
  freeze_amount_after: string;
  created_at: string;
}

/**
 * The next `limit` postings of the wallets in [from, to) after `after`, oldest first by
 * (created_at, id). One arm per wallet, each an index range scan of `ledger_postings_wallet_time`
 * limited to `limit`; the outer sort sees at most wallets × limit rows, whatever the range holds.
 */
export async function postingsPage(
  db: Db,
  dialect: 'sqlite' | 'postgres',
  walletIds: readonly string[],
  range: TimeRange,
  after: Cursor | null,
  limit: number,
): Promise<PostingRow[]> {
  if (walletIds.length === 0) return [];
  const start = after === null ? range.from : after.at;
  const keyset =
    after === null
      ? sql`created_at >= ${start}`
      : sql`created_at >= ${start} and (created_at > ${start} or id > ${after.id})`;
  // PostgreSQL writes the time as the ISO text the SQLite store holds (fixed width, so the outer
  // sort of several wallets' arms by that text is the time order): the driver's timestamptz parser
  // (a Date per row and back) was the export's largest cost on PostgreSQL.
  const time = dialect === 'postgres' ? ISO_TEXT : sql`created_at`;
  const arms = walletIds.map(
    (walletId, i) => sql`select * from (select id, wallet_id, kind, amount, idempotency_key, amount_after,
      freeze_amount_after, ${time} as created_at from ledger_postings where wallet_id = ${walletId} and ${keyset}
      and created_at < ${range.to} order by ledger_postings.created_at, id limit ${limit}) as ${sql.raw(`w${i}`)}`,
  );
  const union = sql.join(arms, sql` union all `);
  const query =
    walletIds.length === 1 ? arms[0]! : sql`select * from (${union}) as u order by created_at, id limit ${limit}`;
  const result = await query.execute(db);
  return result.rows as PostingRow[];
}

/** `checkout:<id>` (a settlement credit) and `payout:<id>:<step>` (a payout's moves): what a posting is for. */
export function postingLinks(key: string): { checkoutId: string | null; payoutId: string | null } {
  if (key.startsWith('checkout:')) return { checkoutId: key.slice('checkout:'.length), payoutId: null };
  if (key.startsWith('payout:')) {
    const rest = key.slice('payout:'.length);
    const colon = rest.indexOf(':');
    return { checkoutId: null, payoutId: colon < 0 ? rest : rest.slice(0, colon) };
  }
  return { checkoutId: null, payoutId: null };
}

/** The ledger report: every posting of the merchant's wallets, oldest first. */
export function ledgerReader(): (req: PageRequest) => Promise<Page> {
  let wallets: Map<string, WalletInfo> | undefined;
  return async ({ db, dialect, merchantId, range, after, limit }) => {
    wallets ??= new Map((await listWallets(db, merchantId)).map((w) => [w.id, w]));
    const rows = await postingsPage(db, dialect, [...wallets.keys()], range, after, limit);
    const out: ReportRow[] = rows.map((p) => {
      const w = wallets!.get(p.wallet_id)!;
      return {
        postingId: p.id,
        postedAt: p.created_at,
        walletId: p.wallet_id,
        chain: w.chain,
        asset: w.asset,
        kind: p.kind,
        amount: p.amount,
        balanceAfter: p.amount_after,
        freezeAmountAfter: p.freeze_amount_after,
        ...postingLinks(p.idempotency_key),
      };
    });
    const lastRow = rows[rows.length - 1];
    return { rows: out, last: lastRow === undefined ? null : { at: lastRow.created_at, id: lastRow.id } };
  };
}
