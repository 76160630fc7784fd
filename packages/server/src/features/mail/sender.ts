import type { Store } from '../../store/store.js';
import { addressKey } from './address.js';
import { claimMails, recentCounts } from './claims.js';
import { oneLine } from './layout.js';
import { type RenderDeps, renderRow } from './render.js';
import type { MailOutboxTable, MailStatus } from './tables.js';
import type { MailTransport, SendResult } from './transport.js';

/** Seconds before retry n (1-based) of a temporary failure; the last repeats. About 3 days in all over MAX_ATTEMPTS. */
export const BACKOFF_SECONDS = [60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600];
export const MAX_ATTEMPTS = 12;
/** A sent mail's sealed data (its link token) is deleted this long after sending. */
export const SEALED_RETENTION_MS = 7 * 24 * 3600 * 1000;

export interface MailSenderOptions extends RenderDeps {
  store: Store;
  /** null: no transport configured, every mail is kept. */
  transport: MailTransport | null;
  /** HOSTPAY_MAIL_FROM (the address) and its domain (Message-ID). */
  from: string;
  owner: string;
  /** `<instance id>/`: an earlier run's leases are free at once. */
  earlier: string;
  now: () => number;
  leaseMs: number;
  pollMs: number;
  batch: number;
  payerDailyLimit: number;
  recipientHourlyLimit: number;
  /** Milliseconds before retry n; default BACKOFF_SECONDS. Tests shorten it. */
  retryMs?: (attempt: number) => number;
  log: { warn(msg: string): void };
  /** Runs after a claim, before anything is sent (a test's kill -9 point). */
  afterClaim?: () => void;
}

/**
 * The leased sender (docs/mail.md, "Delivery"): claims due mails, decides each (suppressed after a
 * hard bounce, limited, kept without a transport or to a sandbox's payer, else sent), sends with
 * the stable Message-ID `<id>@<domain of HOSTPAY_MAIL_FROM>`, then marks it. A crash between the
 * server's acceptance and the mark sends it again when the lease expires: at least once.
 */
export class MailSender {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #stopped = true;
  readonly #o: MailSenderOptions;

  constructor(o: MailSenderOptions) {
    this.#o = o;
  }

  get domain(): string {
    return this.#o.from.slice(this.#o.from.lastIndexOf('@') + 1);
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const tick = () => {
      if (this.#stopped) return;
      this.#running = this.runOnce()
        .then(() => undefined)
        .catch((e: unknown) => this.#o.log.warn(`mail sender: ${(e as Error).message}`))
        .finally(() => {
          this.#running = null;
          if (!this.#stopped) this.#timer = setTimeout(tick, this.#o.pollMs);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    await this.#running;
  }

  /** One round: claims and handles due mails until none is left; returns how many were handled. */
  async runOnce(): Promise<number> {
    let handled = 0;
    for (;;) {
      const now = this.#o.now();
      const rows = await claimMails(this.#o.store, {
        owner: this.#o.owner,
        earlier: this.#o.earlier,
        now: new Date(now).toISOString(),
        until: new Date(now + this.#o.leaseMs).toISOString(),
        limit: this.#o.batch,
      });
      if (rows.length > 0) this.#o.afterClaim?.();
      for (const row of rows) await this.handle(row);
      handled += rows.length;
      if (rows.length < this.#o.batch) break;
    }
    await this.sweep();
    return handled;
  }

  /** Deletes the sealed data (link tokens) of mails sent or kept over 7 days ago. */
  async sweep(): Promise<void> {
    const at = new Date(this.#o.now()).toISOString();
    const before = new Date(this.#o.now() - SEALED_RETENTION_MS).toISOString();
    await this.#o.store.writeTransaction((trx) =>
      trx
        .updateTable('mail_outbox')
        .set({ data_sealed: null, body_deleted_at: at })
        .where('data_sealed', 'is not', null)
        .where('status', '!=', 'pending')
        .where('updated_at', '<', before)
        .execute(),
    );
  }

  async handle(row: MailOutboxTable): Promise<MailStatus> {
    const o = this.#o;
    const now = o.now();
    const bounced = await o.store.db
      .selectFrom('mail_bounces')
      .select('address')
      .where('address', '=', addressKey(row.to_address))
      .executeTakeFirst();
    if (bounced !== undefined)
      return this.mark(row, 'suppressed', null, 'the address bounced hard earlier: not mailed until it changes');
    const counts = await recentCounts(
      o.store,
      row,
      new Date(now - 24 * 3600_000).toISOString(),
      new Date(now - 3600_000).toISOString(),
    );
    if (row.to_role === 'payer' && counts.merchantPayer >= o.payerDailyLimit)
      return this.mark(row, 'limited', null, `the merchant's ${o.payerDailyLimit} payer mails of 24 hours are used`);
    if (row.kind !== 'security' && counts.recipient >= o.recipientHourlyLimit)
      return this.mark(row, 'limited', null, `${o.recipientHourlyLimit} mails to this address in the last hour`);
    let rendered: Awaited<ReturnType<typeof renderRow>>;
    try {
      rendered = await renderRow(o, row);
    } catch (e) {
      // One mail that cannot be rendered (an unknown kind, data that no longer opens) ends alone,
      // instead of failing the round and coming back first in every claim after it.
      return this.mark(row, 'failed', null, `could not be rendered: ${(e as Error).message}`);
    }
    if (rendered === null) return this.mark(row, 'failed', null, 'the mail data was deleted');
    if (o.transport === null || (o.sandbox && row.to_role === 'payer'))
      return this.mark(row, 'kept', rendered.subject, null);
    // A batch is sent one mail after another: if this instance's lease ran out meanwhile, another
    // may have claimed the mail, and only the holder of a fresh lease sends it.
    if (!(await this.renewLease(row))) return 'pending';
    const result: SendResult = await o.transport.send({
      messageId: `<${row.id}@${this.domain}>`,
      from: { name: oneLine(rendered.sender.name ?? 'hostpay'), address: o.from },
      replyTo: rendered.sender.supportEmail,
      to: row.to_address,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
    });
    if (result.ok) return this.mark(row, 'sent', rendered.subject, null);
    if (result.bounce) {
      await o.store.writeTransaction((trx) =>
        trx
          .insertInto('mail_bounces')
          .values({
            address: addressKey(row.to_address),
            merchant_id: row.merchant_id,
            mail_id: row.id,
            reason: result.error,
            at: new Date(now).toISOString(),
          })
          .onConflict((oc) => oc.column('address').doUpdateSet({ mail_id: row.id, reason: result.error }))
          .execute(),
      );
      return this.mark(row, 'bounced', rendered.subject, result.error);
    }
    if (result.permanent || row.attempts + 1 >= MAX_ATTEMPTS)
      return this.mark(row, 'failed', rendered.subject, result.error);
    return this.retry(row, result.error);
  }

  async retry(row: MailOutboxTable, error: string): Promise<MailStatus> {
    const o = this.#o;
    const attempt = row.attempts + 1;
    const delay =
      o.retryMs?.(attempt) ?? (BACKOFF_SECONDS[Math.min(attempt, BACKOFF_SECONDS.length) - 1] as number) * 1000;
    const at = new Date(o.now()).toISOString();
    await o.store.writeTransaction((trx) =>
      trx
        .updateTable('mail_outbox')
        .set({
          attempts: attempt,
          next_attempt_at: new Date(o.now() + delay).toISOString(),
          last_error: error,
          lease_owner: null,
          lease_expires_at: null,
          updated_at: at,
        })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .execute(),
    );
    o.log.warn(`mail ${row.id}: attempt ${attempt} failed, retried in ${Math.round(delay / 1000)} s: ${error}`);
    return 'pending';
  }

  /** Extends this instance's lease on a mail it is about to send; false when it no longer holds it. */
  async renewLease(row: MailOutboxTable): Promise<boolean> {
    const o = this.#o;
    const now = o.now();
    const result = await o.store.writeTransaction((trx) =>
      trx
        .updateTable('mail_outbox')
        .set({ lease_expires_at: new Date(now + o.leaseMs).toISOString() })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .where('lease_owner', '=', o.owner)
        .where('lease_expires_at', '>', new Date(now).toISOString())
        .executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) === 1;
  }

  /** The mail's end: its status, the subject it went out with, the error that ended it. */
  async mark(
    row: MailOutboxTable,
    status: MailStatus,
    subject: string | null,
    error: string | null,
  ): Promise<MailStatus> {
    const at = new Date(this.#o.now()).toISOString();
    const counted = status === 'sent' || status === 'kept';
    await this.#o.store.writeTransaction((trx) =>
      trx
        .updateTable('mail_outbox')
        .set({
          status,
          subject,
          attempts: row.attempts + (status === 'sent' || status === 'bounced' || status === 'failed' ? 1 : 0),
          last_error: error,
          lease_owner: null,
          lease_expires_at: null,
          updated_at: at,
          sent_at: counted ? at : null,
        })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .execute(),
    );
    return status;
  }
}
