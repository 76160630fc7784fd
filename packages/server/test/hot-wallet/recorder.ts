import type { Db } from '../../src/store/store.js';
import type { PayoutJob, PayoutSenderPort, SentPayoutJob } from '../../src/features/hot-wallet/port.js';

export type PortCall =
  | ['sent', string, string]
  | ['confirmations', string, number]
  | ['completed', string, string | undefined]
  | ['failed', string, string]
  | ['reorged', string]
  | ['held', string, string];

/**
 * The payouts feature's side of the sender, as a plain recorder: it hands out approved payouts and
 * records every call the sender makes, in order. It stands for another feature's port (the
 * hot wallet's own tables are the real store); a payout leaves `approved` when it is marked sent.
 */
export class RecorderPort implements PayoutSenderPort {
  readonly approvedJobs = new Map<string, PayoutJob>();
  readonly calls: PortCall[] = [];

  add(job: PayoutJob): void {
    this.approvedJobs.set(job.id, job);
  }
  of(payoutId: string): PortCall[] {
    return this.calls.filter((c) => c[1] === payoutId);
  }

  async approved(chainId: string, limit: number): Promise<PayoutJob[]> {
    return [...this.approvedJobs.values()].filter((j) => j.chainId === chainId).slice(0, limit);
  }
  /** Claimed while the payout is still handed out (not marked sent, not withdrawn by the test). */
  async claimForSigning(_trx: Db, payoutId: string): Promise<boolean> {
    return this.approvedJobs.has(payoutId);
  }
  async markSent(payoutId: string, p: { txHash: string; networkFee?: string }): Promise<void> {
    this.approvedJobs.delete(payoutId);
    // As the payouts feature's port: the same hash again does nothing.
    const last = this.of(payoutId).findLast((c) => c[0] === 'sent');
    if (last?.[2] === p.txHash) return;
    this.calls.push(['sent', payoutId, p.txHash]);
  }
  async markConfirmations(payoutId: string, confirmations: number): Promise<void> {
    this.calls.push(['confirmations', payoutId, confirmations]);
  }
  async markCompleted(payoutId: string, p: { networkFee?: string }): Promise<void> {
    this.calls.push(['completed', payoutId, p.networkFee]);
  }
  async markFailed(payoutId: string, reason: string): Promise<void> {
    this.calls.push(['failed', payoutId, reason]);
  }
  async markReorged(payoutId: string): Promise<void> {
    this.calls.push(['reorged', payoutId]);
  }
  async holdWithReason(payoutId: string, reason: string): Promise<void> {
    this.calls.push(['held', payoutId, reason]);
  }
  /** The recorder stands for the hot wallet's own payouts only: none reported by an operator. */
  async sent(): Promise<SentPayoutJob[]> {
    return [];
  }
}
