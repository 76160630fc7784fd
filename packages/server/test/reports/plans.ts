import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../src/store/store.js';

/**
 * PostgreSQL plans of the statements code really runs: `spying(db)` is the store's database with a
 * plugin that records every statement compiled through it (the query builder's and raw `sql`
 * alike), and `planOf` EXPLAINs one with its parameters.
 */
export function spying(db: Db): { db: Db; seen: CompiledQuery[] } {
  const seen: CompiledQuery[] = [];
  const executor = db.getExecutor();
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      seen.push(executor.compileQuery(node as RootOperationNode, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: db.withPlugin(plugin), seen };
}

/** A node of EXPLAIN (FORMAT JSON)'s tree. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

/** The plan of `query` (with its parameters) as text and as a tree, as the planner chooses it. */
export async function planOf(db: Db, query: CompiledQuery): Promise<{ text: string; tree: PlanNode }> {
  return db.transaction().execute(async (trx) => {
    const run = async (format: string) =>
      (await trx.executeQuery(CompiledQuery.raw(`explain ${format}${query.sql}`, [...query.parameters])))
        .rows as Record<string, unknown>[];
    const text = (await run('(costs off) ')).map((r) => r['QUERY PLAN']).join('\n');
    const json = (await run('(format json) '))[0]!['QUERY PLAN'] as [{ Plan: PlanNode }];
    return { text, tree: json[0].Plan };
  });
}

/**
 * The scans of `tables` in a plan that read a whole table: a Seq Scan, or an index scan without
 * an index condition (every entry of the index, in its order).
 */
export function fullScans(tree: PlanNode, tables: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const walk = (n: PlanNode) => {
    const table = n['Relation Name'];
    if (table !== undefined && tables.has(table)) {
      const type = n['Node Type'];
      if (type === 'Seq Scan') out.push(`Seq Scan on ${table}`);
      if ((type === 'Index Scan' || type === 'Index Only Scan') && n['Index Cond'] === undefined)
        out.push(`${type} on ${table} using ${n['Index Name']} without a condition`);
    }
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(tree);
  return out;
}

/** The tables that grow with use: never read whole by a search or a reconciliation page. */
export const BIG_TABLES: ReadonlySet<string> = new Set([
  'checkouts',
  'checkout_options',
  'transfers',
  'payouts',
  'payout_timeline',
  'checkout_timeline',
  'audit_log',
  'ledger_postings',
  'invoices',
  'payment_links',
]);

/**
 * Per table: the key of the source row, and the columns each copy changes (the rest are the
 * source's). Invoices and links are copied to another merchant (`$other`): they are read within
 * one merchant's own rows (docs/reports.md, "Indexes and plans").
 */
const COPIES: Record<string, { key: string; set: Record<string, string> }> = {
  checkouts: {
    key: 'id',
    set: {
      id: `s.id || '_' || i`,
      order_id: `'bulk-' || i`,
      amount: 's.amount + i',
      customer_email: `i || s.customer_email`,
      created_at: `s.created_at - interval '30 days' - i * interval '1 second'`,
    },
  },
  checkout_options: {
    key: 'checkout_id',
    set: {
      id: `s.id || '_' || i`,
      checkout_id: `s.checkout_id || '_' || i`,
      address: `s.address || i`,
      amount_due: 's.amount_due + i',
    },
  },
  transfers: {
    key: 'checkout_id',
    set: {
      id: `s.id || '_' || i`,
      checkout_id: `s.checkout_id || '_' || i`,
      option_id: `s.option_id || '_' || i`,
      tx_hash: `s.tx_hash || i`,
      amount: 's.amount + i',
      detected_at: `s.detected_at - interval '30 days' - i * interval '1 second'`,
    },
  },
  payouts: {
    key: 'id',
    set: {
      id: `s.id || '_' || i`,
      destination: `s.destination || i`,
      tx_hash: `s.tx_hash || i`,
      amount: 's.amount + i',
      total: 's.total + i',
      created_at: `s.created_at - interval '30 days' - i * interval '1 second'`,
    },
  },
  audit_log: {
    key: 'id',
    set: { id: `s.id || '_' || i`, object_id: `s.object_id || '_' || i`, at: `s.at - interval '30 days'` },
  },
  invoices: {
    key: 'id',
    set: {
      id: `s.id || '_' || i`,
      merchant_id: '$other',
      seq: 's.seq + i',
      number: `s.number || '-' || i`,
      token_hash: `s.token_hash || i`,
      customer_email: `i || s.customer_email`,
      total: 's.total + i',
      created_at: `s.created_at - interval '30 days' - i * interval '1 second'`,
    },
  },
  payment_links: {
    key: 'id',
    set: {
      id: `s.id || '_' || i`,
      merchant_id: '$other',
      slug: `s.slug || i`,
      name: `'bulk link ' || i`,
      created_at: `s.created_at - interval '30 days' - i * interval '1 second'`,
    },
  },
  payout_timeline: {
    key: 'payout_id',
    set: { payout_id: `s.payout_id || '_' || i`, at: `s.at - interval '30 days' - i * interval '1 second'` },
  },
};

/**
 * Makes the tables a search and a reconciliation read large, so the planner plans as it would in
 * production (on a few rows a whole-table scan is cheapest and no index is used): `n` copies of
 * the merchant's checkout (its options, transfers and a transfer's audit entry), payout (its
 * timeline), invoice and payment link, each with its own ids, order id, addresses, hashes,
 * emails, numbers and amounts, 30 days before the originals; then ANALYZE.
 */
export async function bulkUp(
  db: Db,
  ids: { checkoutId: string; payoutId: string; invoiceId: string; linkId: string; otherMerchantId: string },
  n: number,
): Promise<void> {
  const { checkoutId, payoutId } = ids;
  const source: Record<string, string> = {
    invoices: ids.invoiceId,
    payment_links: ids.linkId,
    checkouts: checkoutId,
    checkout_options: checkoutId,
    transfers: checkoutId,
    payouts: payoutId,
    payout_timeline: payoutId,
    // The audit entry of the first report of one of the checkout's transfers.
    audit_log: (
      await sql<{ id: string }>`select a.id from audit_log a join transfers t on t.id = a.object_id
        where a.object_type = 'transfer' and t.checkout_id = ${checkoutId} limit 1`.execute(db)
    ).rows[0]!.id,
  };
  for (const [table, { key, set }] of Object.entries(COPIES)) {
    const columns = (
      await sql<{ column_name: string }>`select column_name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db)
    ).rows.map((r) => r.column_name);
    const list = columns.map((c) => `"${c}"`).join(', ');
    const other = `'${ids.otherMerchantId.replace(/'/g, "''")}'`;
    const values = columns.map((c) => (set[c] ?? `s."${c}"`).replace('$other', other)).join(', ');
    // In batches: each well inside the store's statement timeout on a loaded machine.
    for (let from = 1; from <= n; from += 2000) {
      const to = Math.min(n, from + 1999);
      await sql`insert into ${sql.raw(table)} (${sql.raw(list)})
        select ${sql.raw(values)} from ${sql.raw(table)} as s, generate_series(${from}::int, ${to}::int) as i
        where s.${sql.raw(key)} = ${source[table]}`.execute(db);
    }
    await sql`analyze ${sql.raw(table)}`.execute(db);
  }
}
