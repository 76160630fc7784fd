import type { Store } from '../../store/store.js';
import { watchQuery } from '../chain-watch/config.js';
import { toBaseUnits } from './chain-ops.js';
import type { PayoutSenderPort, SentPayoutJob } from './port.js';
import type { VerifyTransfer } from './verify.js';

export interface SentVerifierOptions {
  store: Store;
  verifyTransfer: VerifyTransfer;
  now: () => number;
  log: { warn(msg: string): void };
  port?: PayoutSenderPort | undefined;
  /** How often the sent payouts of watched chains are checked, ms. Default 5,000. */
  everyMs?: number;
  /** A reported transaction the node never shows this long after the payout was sent: failed. Default 30 min. */
  notFoundFailMs?: number;
}

export interface VerifyRound {
  checked: number;
  completed: number;
  failed: number;
}

/**
 * The manual sender's check on an EVM chain with an enabled watch: a transaction the operator
 * reported (`POST /admin/v1/payouts/{id}/sent`) is looked up on the chain's node and must pay the
 * payout (recipient, asset, amount) before it completes. Payouts the hot wallet sent are its
 * tracker's (it knows their nonces and fee bumps), so they are left alone here. Every call to the
 * port is idempotent: two instances checking the same payout at once change nothing twice.
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

  /** One check of every enabled watched chain (the loop calls it; tests drive it by hand). */
  async roundAll(): Promise<VerifyRound> {
    const total: VerifyRound = { checked: 0, completed: 0, failed: 0 };
    const watches = await watchQuery(this.#o.store.db)
      .where('w.enabled', '=', 1)
      .where('w.adapter_kind', '=', 'evm-rpc')
      .execute();
    for (const w of watches) {
      const r = await this.round(w.chain_id, w.confirmations_required);
      total.checked += r.checked;
      total.completed += r.completed;
      total.failed += r.failed;
    }
    return total;
  }

  async round(chainId: string, required: number): Promise<VerifyRound> {
    const result: VerifyRound = { checked: 0, completed: 0, failed: 0 };
    const port = this.#o.port;
    if (port === undefined) return result;
    const sent = await port.sent(chainId, 200);
    if (sent.length === 0) return result;
    const ours = new Set(
      (
        await this.#o.store.db
          .selectFrom('hot_wallet_txs')
          .select('payout_id')
          .where(
            'payout_id',
            'in',
            sent.map((s) => s.id),
          )
          .execute()
      ).map((r) => r.payout_id),
    );
    for (const job of sent) {
      if (ours.has(job.id)) continue;
      result.checked++;
      const outcome = await this.#check(port, job, Math.max(1, required));
      if (outcome === 'completed') result.completed++;
      if (outcome === 'failed') result.failed++;
    }
    return result;
  }

  async #check(port: PayoutSenderPort, job: SentPayoutJob, required: number): Promise<string> {
    const units = toBaseUnits(job.amount, job.decimals);
    if (units === null) {
      await port.markFailed(job.id, `the amount ${job.amount} cannot be checked on chain exactly`, 'system');
      return 'failed';
    }
    const v = await this.#o.verifyTransfer(job.chainId, job.txHash, {
      to: job.destination,
      contract: job.contract,
      amountBaseUnits: units,
    });
    if (!v.ok) {
      if (!v.retry) {
        await port.markFailed(job.id, v.reason, 'system');
        return 'failed';
      }
      // Counted before and gone now: a reorganisation took it out; it may come back in another block.
      if (job.confirmations > 0 && v.reason.includes('not mined')) {
        await port.markReorged(job.id);
        return 'reorged';
      }
      const waited = this.#o.now() - Date.parse(job.updatedAt);
      if (job.confirmations === 0 && v.reason.includes('not mined') && waited > (this.#o.notFoundFailMs ?? 1_800_000)) {
        await port.markFailed(
          job.id,
          `${v.reason}: not on chain ${Math.round(waited / 60_000)} minutes after it was reported`,
          'system',
        );
        return 'failed';
      }
      return 'waiting';
    }
    // Fewer confirmations than counted before: the block was replaced, the count restarts.
    if (v.confirmations < job.confirmations) await port.markReorged(job.id);
    if (v.confirmations >= required) {
      await port.markConfirmations(job.id, required);
      await port.markCompleted(job.id, {});
      return 'completed';
    }
    await port.markConfirmations(job.id, v.confirmations);
    return 'counting';
  }
}
