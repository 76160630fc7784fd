import { decimalText } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';
import type { TransferReport } from './transfers.js';
import type { AuditContext } from '../audit/service.js';

const WEEK_MS = 7 * 24 * 3600 * 1000;

export interface Targets {
  /** Live deposit addresses on the chain, as the chain's adapter normalises them (`normalize`). */
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
  normalize: (address: string) => string,
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
    addresses.add(normalize(r.address));
    if (r.confirmations_required > depth) depth = r.confirmations_required;
  }
  return { addresses, depth };
}

/** A live transfer still short of the depth: its confirmations are raised as blocks arrive. */
export type ShortTransfer = Omit<TransferReport, 'chain' | 'blockTime' | 'blockHash'> & { blockHash: string };

/**
 * What a chain watcher may ask of and tell the checkouts feature: the addresses worth watching,
 * the transfers it reported from given blocks, and its reports and retractions, which go through
 * the transfers code path (the same as POST /admin/v1/transfers). Nothing else of checkouts.
 */
export interface ChainPort {
  /**
   * `normalize`: the chain adapter's spelling of an address for comparison (lower case for EVM
   * and bech32; unchanged for base58, where case matters).
   */
  liveTargets(
    chainId: string,
    chainConfirmations: number,
    nowMs: number,
    normalize: (address: string) => string,
  ): Promise<Targets>;
  /** Ids of the live (not retracted) transfers of the chain recorded from these blocks. */
  transfersInBlocks(chainId: string, blockHashes: string[]): Promise<string[]>;
  /** The live transfers of the chain with a block hash and fewer than `depth` confirmations. */
  shortTransfers(chainId: string, depth: number): Promise<ShortTransfer[]>;
  /** `created`: true for a first report. `audit` names the watcher in the audit log. */
  reportTransfer(report: TransferReport, audit: AuditContext): Promise<{ created: boolean }>;
  retractTransfer(id: string, audit: AuditContext): Promise<unknown>;
}

export function chainPort(db: Db, transfers: Pick<ChainPort, 'reportTransfer' | 'retractTransfer'>): ChainPort {
  return {
    liveTargets: (chainId, chainConfirmations, nowMs, normalize) =>
      liveTargets(db, chainId, chainConfirmations, nowMs, normalize),
    async transfersInBlocks(chainId, blockHashes) {
      const rows = await db
        .selectFrom('transfers')
        .select('id')
        .where('chain_id', '=', chainId)
        .where('retracted', '=', 0)
        .where('block_hash', 'in', blockHashes)
        .execute();
      return rows.map((r) => r.id);
    },
    async shortTransfers(chainId, depth) {
      const rows = await db
        .selectFrom('transfers as t')
        .innerJoin('assets as a', 'a.id', 't.asset_id')
        .select(['t.tx_hash', 't.log_index', 't.to_address', 't.amount', 't.confirmations', 't.block_hash', 'a.symbol'])
        .where('t.chain_id', '=', chainId)
        .where('t.retracted', '=', 0)
        .where('t.confirmations', '<', depth)
        .where('t.block_hash', 'is not', null)
        .execute();
      return rows.map((r) => ({
        txHash: r.tx_hash,
        index: r.log_index,
        toAddress: r.to_address,
        asset: r.symbol,
        amount: decimalText(r.amount),
        confirmations: r.confirmations,
        blockHash: r.block_hash!,
      }));
    },
    reportTransfer: (report, audit) => transfers.reportTransfer(report, audit),
    retractTransfer: (id, audit) => transfers.retractTransfer(id, audit),
  };
}
