import { Decimal, decimalText } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';
import { listWallets, postingsPage, type WalletInfo } from './ledger-pages.js';
import type { TimeRange } from './range.js';

export interface StatementLineText {
  walletId: string;
  asset: string;
  chain: string;
  opening: string;
  credits: string;
  debits: string;
  fees: string;
  closing: string;
  frozenAtClose: string;
}

const PAGE = 1000;

/** The balance and frozen amount after the wallet's last posting before `at` (0 and 0 before its first). */
async function balanceBefore(db: Db, walletId: string, at: string): Promise<{ amount: string; frozen: string }> {
  const row = await db
    .selectFrom('ledger_postings')
    .select(['amount_after', 'freeze_amount_after'])
    .where('wallet_id', '=', walletId)
    .where('created_at', '<', at)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { amount: row?.amount_after ?? '0', frozen: row?.freeze_amount_after ?? '0' };
}

/** The service fees (in the wallet's asset) withheld from the settlements credited by these postings' checkouts. */
async function feesOf(db: Db, checkoutIds: string[]): Promise<Decimal> {
  if (checkoutIds.length === 0) return new Decimal(0);
  const rows = await db
    .selectFrom('checkouts as c')
    .innerJoin('checkout_options as o', 'o.id', 'c.settled_option_id')
    .select('o.fee_in_asset')
    .where('c.id', 'in', checkoutIds)
    .execute();
  return rows.reduce((sum, r) => sum.plus(r.fee_in_asset), new Decimal(0));
}

/**
 * One wallet's month: the month's postings read a page at a time and summed exactly (SQLite has
 * no exact SUM over decimal text); opening and closing are the ledger's own `amount_after`
 * before each end, so the equation is checked against the ledger, not derived from it.
 */
async function walletLine(
  db: Db,
  dialect: 'sqlite' | 'postgres',
  w: WalletInfo,
  range: TimeRange,
): Promise<StatementLineText> {
  const [open, close] = await Promise.all([balanceBefore(db, w.id, range.from), balanceBefore(db, w.id, range.to)]);
  let credits = new Decimal(0);
  let debits = new Decimal(0);
  let fees = new Decimal(0);
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const rows = await postingsPage(db, dialect, [w.id], range, after, PAGE);
    const settled: string[] = [];
    for (const p of rows) {
      if (p.kind === 'credit') credits = credits.plus(p.amount);
      else if (p.kind === 'debit') debits = debits.plus(p.amount);
      if (p.kind === 'credit' && p.idempotency_key.startsWith('checkout:'))
        settled.push(p.idempotency_key.slice('checkout:'.length));
    }
    fees = fees.plus(await feesOf(db, settled));
    const last = rows[rows.length - 1];
    if (rows.length < PAGE || last === undefined) break;
    after = { at: last.created_at, id: last.id };
  }
  return {
    walletId: w.id,
    asset: w.asset,
    chain: w.chain,
    opening: decimalText(new Decimal(open.amount)),
    credits: decimalText(credits),
    debits: decimalText(debits),
    fees: decimalText(fees),
    closing: decimalText(new Decimal(close.amount)),
    frozenAtClose: decimalText(new Decimal(close.frozen)),
  };
}

/** The merchant's statement for a month: one line per wallet that existed before the month ended. */
export async function statement(
  db: Db,
  dialect: 'sqlite' | 'postgres',
  merchantId: string,
  range: TimeRange,
): Promise<StatementLineText[]> {
  const wallets = await listWallets(db, merchantId);
  const created = new Map(
    (await db.selectFrom('wallets').select(['id', 'created_at']).where('merchant_id', '=', merchantId).execute()).map(
      (w) => [w.id, w.created_at],
    ),
  );
  const lines: StatementLineText[] = [];
  for (const w of wallets) {
    if ((created.get(w.id) ?? '') >= range.to) continue;
    lines.push(await walletLine(db, dialect, w, range));
  }
  return lines;
}
