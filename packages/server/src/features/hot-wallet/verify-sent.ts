import type { Store } from '../../store/store.js';
import { watchQuery } from '../chain-watch/config.js';
import { toBaseUnits } from './chain-ops.js';
import type { PayoutSenderPort, SentPayoutJob } from './port.js';
import type { TransferChecker, Verifier } from './verify.js';

export interface SentVerifierOptions {
  store: Store;
  open: Verifier['open'];
  now: () => number;
  log: { warn(msg: string): void };
  port?: PayoutSenderPort | undefined;
  /**
   * This instance's chain watcher (its lease owner): a chain's reported transactions are checked
   * only by the instance whose watcher holds the chain's lease, the one that counts their
   * confirmations. Undefined: every chain (a single instance without a watcher of its own).
   */
  watchOwner?: (() => string) | undefined;
  /** How often the sent payouts of watched chains are checked, ms. Default 5,000. */
  everyMs?: number;
  /** A reported transaction the node never shows this long after the payout was sent: failed. Default 30 min. */
  notFoundFailMs?: number;
}

export interface VerifyRound {
  checked: number;
  /** Seen mined and paying the payout: recorded for the chain watcher to count. */
  mined: number;
  failed: number;
}

/**
 * The manual sender's check on an EVM chain with an enabled watch: a transaction the operator
 * reported (`POST /admin/v1/payouts/{id}/sent`) is looked up on the chain's node and must pay the
 * payout (recipient, asset, amount). Once it does and is mined, its block is recorded
 * (manual_payout_txs) and the chain watcher counts its confirmations from the blocks it scanned,
 * as it does the hot wallet's, and completes the payout (confirmations.ts); a reorganisation it
 * notices deletes the record, and the transaction is looked for here again. Payouts the hot
 * wallet sent are its tracker's (it knows their nonces and fee bumps), so they are left alone
 * here. Every call to the port is idempotent: two instances checking the same payout at once
 * (a lease changing hands mid-round) change nothing twice.
 */
export class SentVerifier {
  readonly #o: SentVerifierOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #started = false;

  constructor(opts: SentVerifierOptions) {
    this.#o = opts;
  }

  attach(port: PayoutSenderPort): void {
    this.#o.port = port;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    const again = (ms: number) => {
      this.#timer = setTimeout(() => {
        this.#running = this.roundAll()
          .catch((err: unknown) => this.#o.log.warn(`payout verification: ${(err as Error).message}`))
          .finally(() => {
            this.#running = undefined;
            if (this.#started) again(this.#o.everyMs ?? 5000);
          });
      }, ms);
      this.#timer.unref();
    };
    again(0);
  }

  async stop(): Promise<void> {
    this.#started = false;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** One check of every enabled watched EVM chain this instance's watcher leads (the loop calls it; tests drive it by hand). */
  async roundAll(): Promise<VerifyRound> {
    const total: VerifyRound = { checked: 0, mined: 0, failed: 0 };
    let q = watchQuery(this.#o.store.db).where('w.enabled', '=', 1).where('w.adapter_kind', '=', 'evm-rpc');
    const owner = this.#o.watchOwner?.();
    if (owner !== undefined)
      q = q.where('w.lease_owner', '=', owner).where('w.lease_expires_at', '>', new Date(this.#o.now()).toISOString());
    for (const w of await q.execute()) {
      const r = await this.round(w.chain_id);
      total.checked += r.checked;
      total.mined += r.mined;
      total.failed += r.failed;
    }
    return total;
  }

  async round(chainId: string): Promise<VerifyRound> {
    const result: VerifyRound = { checked: 0, mined: 0, failed: 0 };
    const port = this.#o.port;
    if (port === undefined) return result;
    const sent = await port.sent(chainId, 200);
    if (sent.length === 0) return result;
    const ids = sent.map((s) => s.id);
    const db = this.#o.store.db;
    const ours = new Set(
      (await db.selectFrom('hot_wallet_txs').select('payout_id').where('payout_id', 'in', ids).execute()).map(
        (r) => r.payout_id,
      ),
    );
    // Recorded in a block the watcher follows: its confirmations are the watcher's to count.
    const followed = new Map(
      (
        await db
          .selectFrom('manual_payout_txs')
          .select(['payout_id', 'tx_hash'])
          .where('payout_id', 'in', ids)
          .where('status', '=', 'mined')
          .execute()
      ).map((r) => [r.payout_id, r.tx_hash]),
    );
    const todo = sent.filter((job) => !ours.has(job.id) && followed.get(job.id) !== job.txHash);
    if (todo.length === 0) return result;
    const checker = await this.#o.open(chainId);
    try {
      for (const job of todo) {
        result.checked++;
        const outcome = await this.#check(port, checker, job);
        if (outcome === 'mined') result.mined++;
        if (outcome === 'failed') result.failed++;
      }
    } finally {
      checker.close();
    }
    return result;
  }

  async #check(port: PayoutSenderPort, checker: TransferChecker, job: SentPayoutJob): Promise<string> {
    const units = toBaseUnits(job.amount, job.decimals);
    if (units === null) {
      await port.markFailed(job.id, `the amount ${job.amount} cannot be checked on chain exactly`, 'system');
      return 'failed';
    }
    const v = await checker.check(job.txHash, {
      to: job.destination,
      contract: job.contract,
      amountBaseUnits: units,
    });
    if (!v.ok) {
      if (!v.retry) {
        await port.markFailed(job.id, v.reason, 'system');
        return 'failed';
      }
      // Since it was reported, or since a reorganisation took it out (the move's time).
      const waited = this.#o.now() - Date.parse(job.updatedAt);
      if (v.reason.includes('not mined') && waited > (this.#o.notFoundFailMs ?? 1_800_000)) {
        await port.markFailed(
          job.id,
          `${v.reason}: not on chain ${Math.round(waited / 60_000)} minutes after it was reported`,
          'system',
        );
        return 'failed';
      }
      return 'waiting';
    }
    const row = {
      chain_id: job.chainId,
      tx_hash: job.txHash,
      block_number: v.blockNumber,
      block_hash: v.blockHash,
      confirmations: 0,
      status: 'mined' as const,
      mined_at: new Date(this.#o.now()).toISOString(),
    };
    await this.#o.store.writeTransaction((trx) =>
      trx
        .insertInto('manual_payout_txs')
        .values({ payout_id: job.id, ...row })
        .onConflict((oc) => oc.column('payout_id').doUpdateSet(row))
        .execute(),
    );
    return 'mined';
  }
}
