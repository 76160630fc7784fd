import { sql, type RawBuilder } from 'kysely';
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
  const result = await postingsQuery(dialect, walletIds, range, after, limit).execute(db);
  return result.rows as PostingRow[];
}

/** The columns of `postingsQuery`, in order. */
const ID = 0;
const WALLET = 1;
const KIND = 2;
const AMOUNT = 3;
const KEY = 4;
const AFTER = 5;
const FROZEN = 6;
const AT = 7;

function postingsQuery(
  dialect: 'sqlite' | 'postgres',
  walletIds: readonly string[],
  range: TimeRange,
  after: Cursor | null,
  limit: number,
): RawBuilder<unknown> {
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
  return walletIds.length === 1 ? arms[0]! : sql`select * from (${union}) as u order by created_at, id limit ${limit}`;
}

/** The payout id of a `payout:<id>:<step>` posting key (`checkout:<id>` keys are settlement credits). */
function payoutOf(key: string): string {
  const rest = key.slice('payout:'.length);
  const colon = rest.indexOf(':');
  return colon < 0 ? rest : rest.slice(0, colon);
}

/** A page of postings as arrays in `postingsQuery`'s column order: the store's array path when it has one. */
async function postingCells(req: PageRequest, walletIds: readonly string[]): Promise<unknown[][]> {
  if (walletIds.length === 0) return [];
  const query = postingsQuery(req.dialect, walletIds, req.range, req.after, req.limit);
  if (req.arrayRows !== undefined) {
    const compiled = query.compile(req.db);
    return req.arrayRows(compiled.sql, compiled.parameters);
  }
  const rows = (await query.execute(req.db)).rows as PostingRow[];
  return rows.map((p) => [
    p.id,
    p.wallet_id,
    p.kind,
    p.amount,
    p.idempotency_key,
    p.amount_after,
    p.freeze_amount_after,
    p.created_at,
  ]);
}

/**
 * A ledger row. A class, not an object literal: V8 tracks a literal's allocation site and, when
 * most of its objects outlive a young-generation collection (a page held while the one before it
 * is encoded), allocates every later one straight in the old generation, where a million rows of
 * garbage piled up to 150 MB before a full collection (docs/reports.md, "Benchmark"). Objects made
 * by a constructor have no allocation site.
 */
class LedgerRow {
  [column: string]: string | null;
  constructor(
    readonly postingId: string,
    readonly postedAt: string,
    readonly walletId: string,
    readonly chain: string,
    readonly asset: string,
    readonly kind: string,
    readonly amount: string,
    readonly balanceAfter: string,
    readonly freezeAmountAfter: string,
    readonly checkoutId: string | null,
    readonly payoutId: string | null,
  ) {}
}

/** The ledger report: every posting of the merchant's wallets, oldest first. */
export function ledgerReader(): (req: PageRequest) => Promise<Page> {
  let wallets: Map<string, WalletInfo> | undefined;
  return async (req) => {
    wallets ??= new Map((await listWallets(req.db, req.merchantId)).map((w) => [w.id, w]));
    const rows = (await postingCells(req, [...wallets.keys()])) as string[][];
    const out: ReportRow[] = new Array<ReportRow>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const p = rows[i]!;
      const w = wallets.get(p[WALLET]!)!;
      const key = p[KEY]!;
      const payout = key.startsWith('payout:');
      out[i] = new LedgerRow(
        p[ID]!,
        p[AT]!,
        p[WALLET]!,
        w.chain,
        w.asset,
        p[KIND]!,
        p[AMOUNT]!,
        p[AFTER]!,
        p[FROZEN]!,
        key.startsWith('checkout:') ? key.slice('checkout:'.length) : null,
        payout ? payoutOf(key) : null,
      );
    }
    const lastRow = rows[rows.length - 1];
    return { rows: out, last: lastRow === undefined ? null : { at: lastRow[AT]!, id: lastRow[ID]! } };
  };
}
