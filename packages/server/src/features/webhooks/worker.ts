import type { Outbox } from '../events/outbox.js';
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { sql, type SqlBool } from 'kysely';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { WebhookDeliveryTable, WebhookEndpointTable } from './tables.js';
import type { Store } from '../../store/store.js';
import { earlierRunPrefix, type InstanceIdentity } from '../../cluster/instance.js';
import { webhookHeaders } from '@hostpay/protocol';
import { eventJson } from '../events/view.js';
import { AttemptRecorder, attemptSucceeded, RECORD_EVERY, type AttemptRecord } from './record.js';
import type { WebhookSender } from './sender.js';
import { secretOwner, urlOwner } from './service.js';
import type { WebhookMetrics } from './metrics.js';
import type { WakeSubscription } from '../events/wakeup.js';

/** Shortest time between two looks at the queue that wake-ups cause, ms. */
const WAKE_SPACING_MS = 5;

interface Lease {
  /** When it expires, as this worker last wrote it. */
  until: number;
  /** Another worker took it over (it had expired): stop serving the endpoint. */
  lost: boolean;
}

export interface WorkerOptions {
  store: Store;
  /** Where an endpoint's `webhook_endpoint.disabled` event goes (record.ts). */
  outbox: Outbox;
  box: SecretBox;
  sender: WebhookSender;
  now: () => number;
  metrics: WebhookMetrics;
  log: { warn(msg: string): void };
  /** How often the queue is looked at when nothing woke the worker (wakeup.ts), ms. Default 250. */
  pollMs?: number;
  /** Deadline of one HTTP attempt, ms. Default 10,000. */
  timeoutMs?: number;
  /**
   * How long an endpoint stays with this worker without a sign of life, ms (HOSTPAY_WEBHOOK_LEASE_SECONDS).
   * Default 10,000. Renewed every third of it while the endpoint is served, sends in flight included.
   */
  leaseMs?: number;
  /**
   * Endpoints served at once by this worker. Default 100: a slot is held only while that endpoint
   * has due deliveries, so many slow endpoints at once do not starve the others.
   */
  maxEndpoints?: number;
  /**
   * Endpoints of one merchant served at once by this worker. Default 10 (a tenth of the slots):
   * a merchant with many slow endpoints holds at most this many slots, so the others keep theirs
   * (docs/webhooks.md, "Fair delivery"; measured in docs/benchmarks.md).
   */
  maxPerMerchant?: number;
  /** Successes recorded per transaction (record.ts). Default 10. */
  recordEvery?: number;
  /** Deliveries read per round of one endpoint. Default 50. */
  batch?: number;
  /** Where wake-ups come from while started (wakeup.ts); without: the poll only. */
  wakeups?: WakeSubscription | undefined;
  /**
   * Who this worker is (cluster/instance.ts): its leases are owned by `identity.owner`, and
   * leases of an earlier run of the same instance are taken back at once, not when they expire.
   * Without: a random owner, and only expired leases are taken.
   */
  identity?: InstanceIdentity | undefined;
}

/**
 * The delivery worker. Work is leased per endpoint, not per delivery: the worker that holds an
 * endpoint's lease sends its due deliveries one at a time in sequence order (so order holds
 * except while retrying, when a later event may overtake one that waits for its retry), and
 * every endpoint is served by its own loop, so one slow or dead endpoint only ever waits on
 * itself, and fairly across merchants (claimFair). Leases are taken by an UPDATE that requires
 * them free (several instances share the endpoints on PostgreSQL; SQLite is one process) and renewed by a heartbeat while the endpoint is served,
 * so a send that takes longer than the lease is not sent again by another instance; a worker
 * killed mid-send stops renewing, its lease expires, and the next worker sends the same delivery
 * again with the same `webhook-id` (at least once). A delivery is marked done only after the
 * answer is recorded.
 */
export class WebhookWorker {
  readonly owner: string;
  readonly #options: Required<
    Omit<WorkerOptions, 'store' | 'box' | 'sender' | 'now' | 'metrics' | 'log' | 'wakeups' | 'identity'>
  > &
    WorkerOptions;
  readonly #serving = new Map<string, Promise<void>>();
  /** Endpoints served right now per merchant (the fair share's count). */
  readonly #perMerchant = new Map<string, number>();
  /**
   * Opened URLs by endpoint, with the sealed text they came from: a changed URL (or a master-key
   * rotation) changes that text, and the cached one is not used again.
   */
  readonly #urls = new LRUCache<string, { sealed: string; url: string }>({ max: 4096 });
  #subscription: { stop(): Promise<void> } | undefined;
  /** Counts wake-ups, so an endpoint that was busy when one came is looked at again. */
  #wakes = 0;
  #timer: NodeJS.Timeout | undefined;
  #wakeTimer: NodeJS.Timeout | undefined;
  #lastWake = Number.NEGATIVE_INFINITY;
  #stopping = false;
  #ticking: Promise<number> | undefined;
  #again = false;

  constructor(opts: WorkerOptions) {
    this.#options = {
      pollMs: 250,
      timeoutMs: 10_000,
      leaseMs: 10_000,
      maxEndpoints: 100,
      maxPerMerchant: 10,
      recordEvery: RECORD_EVERY,
      batch: 50,
      ...opts,
    };
    this.owner = opts.identity?.owner ?? `wkr_${randomBytes(8).toString('hex')}`;
  }

  start(): void {
    this.#stopping = false;
    this.#subscription ??= this.#options.wakeups?.(() => this.wake());
    const loop = () => {
      this.#timer = setTimeout(() => {
        this.tick().then(loop, (err: Error) => {
          this.#options.log.warn(`webhook worker: ${err.message}`);
          loop();
        });
      }, this.#options.pollMs);
      this.#timer.unref();
    };
    loop();
  }

  /**
   * Something was queued: look now rather than at the next poll. Under a stream of commits the
   * queue is looked at most every WAKE_SPACING_MS, not once per commit.
   */
  wake(): void {
    this.#wakes++;
    if (this.#timer === undefined || this.#stopping || this.#wakeTimer !== undefined) return;
    const run = () => {
      this.#wakeTimer = undefined;
      this.#lastWake = performance.now();
      this.tick().catch((err: Error) => this.#options.log.warn(`webhook worker: ${err.message}`));
    };
    const wait = this.#lastWake + WAKE_SPACING_MS - performance.now();
    if (wait <= 0) {
      run();
      return;
    }
    this.#wakeTimer = setTimeout(run, wait);
    this.#wakeTimer.unref();
  }

  /** Stops taking work and waits for the sends under way (each bounded by the timeout). */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearTimeout(this.#wakeTimer);
    this.#wakeTimer = undefined;
    await this.#subscription?.stop();
    this.#subscription = undefined;
    await this.#ticking?.catch(() => undefined);
    await this.settled();
  }

  /** Endpoints served right now by this worker. */
  get busy(): number {
    return this.#serving.size;
  }

  /** Takes the leases of endpoints with due work and starts serving them; returns how many. */
  tick(): Promise<number> {
    if (this.#ticking) {
      this.#again = true;
      return this.#ticking;
    }
    this.#ticking = this.#claimAndServe().finally(() => {
      this.#ticking = undefined;
      if (this.#again && !this.#stopping) {
        this.#again = false;
        void this.tick().catch(() => undefined);
      }
    });
    return this.#ticking;
  }

  /** Resolves when the endpoints served now are done (each send is bounded by the timeout). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#serving.values()]);
  }

  async #claimAndServe(): Promise<number> {
    const free = this.#options.maxEndpoints - this.#serving.size;
    if (free <= 0 || this.#stopping) return 0;
    const claimed = await this.claimFair(free);
    for (const { id, merchantId } of claimed) {
      const wakes = this.#wakes;
      this.#perMerchant.set(merchantId, (this.#perMerchant.get(merchantId) ?? 0) + 1);
      const serving = this.#serve(id)
        .catch((err: Error) => this.#options.log.warn(`webhook worker: endpoint ${id}: ${err.message}`))
        .finally(() => {
          this.#serving.delete(id);
          const left = (this.#perMerchant.get(merchantId) ?? 1) - 1;
          if (left > 0) this.#perMerchant.set(merchantId, left);
          else this.#perMerchant.delete(merchantId);
          // Work queued for it after its last look would otherwise wait for the poll.
          if (this.#wakes !== wakes) this.wake();
        });
      this.#serving.set(id, serving);
    }
    return claimed.length;
  }

  /** Leases up to `limit` endpoints (fairly, see claimFair); returns their ids. */
  async claim(limit: number): Promise<string[]> {
    return (await this.claimFair(limit)).map((c) => c.id);
  }

  /**
   * Leases up to `limit` endpoints that have due deliveries and no live lease, fairly across
   * merchants: candidates are ranked within their merchant (ROW_NUMBER per merchant) and taken
   * rank by rank, so every merchant with due work gets its first endpoint before any gets a
   * second, and a merchant already holding `maxPerMerchant` slots here gets none. The lease is
   * taken by a conditional UPDATE (lease still free), so two instances that picked the same
   * candidate (PostgreSQL) cannot both get it: the second waits for the first's row lock and
   * then finds the lease taken.
   */
  async claimFair(limit: number): Promise<{ id: string; merchantId: string }[]> {
    const { store } = this.#options;
    const cap = this.#options.maxPerMerchant;
    const now = new Date(this.#options.now()).toISOString();
    const until = new Date(this.#options.now() + this.#options.leaseMs).toISOString();
    const busy = [...this.#serving.keys()];
    const full = [...this.#perMerchant].filter(([, n]) => n >= cap).map(([m]) => m);
    // An earlier run of this instance (killed, restarted) is gone: its leases are ours at once.
    const earlier = this.#options.identity === undefined ? undefined : earlierRunPrefix(this.#options.identity);
    /** The lease is free: none, expired, or an earlier run's (`p`: the table's alias and a dot, or ''). */
    const leaseFree = (p: string) => {
      const until = sql.ref(`${p}lease_expires_at`);
      const owner = sql.ref(`${p}lease_owner`);
      // A byte prefix test (substr): collations may order '/' anywhere.
      const earlierRun =
        earlier === undefined
          ? sql``
          : sql` or (substr(${owner}, 1, ${earlier.length}) = ${earlier} and ${owner} != ${this.owner})`;
      return sql<SqlBool>`(${until} is null or ${until} < ${now}${earlierRun})`;
    };
    return store.writeTransaction(async (trx) => {
      let inner = trx
        .selectFrom('webhook_endpoints as e')
        .select([
          'e.id',
          'e.merchant_id',
          sql<number>`row_number() over (partition by e.merchant_id order by e.lease_expires_at, e.id)`.as('rank'),
        ])
        .where('e.disabled', '=', 0)
        .where(leaseFree('e.'))
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('webhook_deliveries as d')
              .select(sql`1`.as('one'))
              .whereRef('d.endpoint_id', '=', 'e.id')
              .where('d.status', '=', 'pending')
              .where('d.next_attempt_at', '<=', now),
          ),
        );
      if (busy.length > 0) inner = inner.where('e.id', 'not in', busy);
      if (full.length > 0) inner = inner.where('e.merchant_id', 'not in', full);
      const rows = await trx
        .selectFrom(inner.as('c'))
        .select(['c.id', 'c.merchant_id'])
        .where('c.rank', '<=', cap)
        .orderBy('c.rank')
        .orderBy('c.id')
        // Room for the rows skipped below: a merchant already served here may use fewer than `cap`.
        .limit(limit + cap * this.#perMerchant.size)
        .execute();
      const taken = new Map(this.#perMerchant);
      const picked: { id: string; merchantId: string }[] = [];
      for (const r of rows) {
        if (picked.length >= limit) break;
        const n = taken.get(r.merchant_id) ?? 0;
        if (n >= cap) continue;
        taken.set(r.merchant_id, n + 1);
        picked.push({ id: r.id, merchantId: r.merchant_id });
      }
      if (picked.length === 0) return [];
      // Still free when taken: on PostgreSQL another instance may hold or have taken it since the
      // select, so the picked rows are locked with SKIP LOCKED (as before the fair share) first.
      let free = picked.map((p) => p.id);
      if (store.dialect === 'postgres')
        free = (
          await trx
            .selectFrom('webhook_endpoints')
            .select('id')
            .where('id', 'in', free)
            .where('disabled', '=', 0)
            .where(leaseFree(''))
            .forUpdate()
            .skipLocked()
            .execute()
        ).map((r) => r.id);
      if (free.length === 0) return [];
      const won = await trx
        .updateTable('webhook_endpoints')
        .set({ lease_owner: this.owner, lease_expires_at: until })
        .where('id', 'in', free)
        .where('disabled', '=', 0)
        .where(leaseFree(''))
        .returning('id')
        .execute();
      const ids = new Set(won.map((w) => w.id));
      return picked.filter((p) => ids.has(p.id));
    });
  }

  /**
   * Keeps this worker's lease; false once another worker holds it. Before a send it is written
   * only when half of it has passed (most deliveries cost no round trip to the store); the
   * heartbeat (`force`) writes it every third of the lease, also while a send is in flight.
   */
  async #renew(endpointId: string, lease: Lease, force = false): Promise<boolean> {
    if (lease.lost) return false;
    if (!force && this.#options.now() < lease.until - this.#options.leaseMs / 2) return true;
    lease.until = this.#options.now() + this.#options.leaseMs;
    const until = new Date(lease.until).toISOString();
    const r = await this.#options.store.writeTransaction((trx) =>
      trx
        .updateTable('webhook_endpoints')
        .set({ lease_expires_at: until })
        .where('id', '=', endpointId)
        .where('lease_owner', '=', this.owner)
        .executeTakeFirst(),
    );
    if ((r.numUpdatedRows ?? 0n) === 0n) lease.lost = true;
    return !lease.lost;
  }

  async #release(endpointId: string): Promise<void> {
    await this.#options.store.writeTransaction((trx) =>
      trx
        .updateTable('webhook_endpoints')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('id', '=', endpointId)
        .where('lease_owner', '=', this.owner)
        .execute(),
    );
  }

  async #serve(endpointId: string): Promise<void> {
    const { db } = this.#options.store;
    // Claimed just now, for leaseMs.
    const lease: Lease = { until: this.#options.now() + this.#options.leaseMs, lost: false };
    const heartbeat = setInterval(
      () => {
        this.#renew(endpointId, lease, true).catch((err: Error) =>
          this.#options.log.warn(`webhook worker: renewing the lease of ${endpointId}: ${err.message}`),
        );
      },
      Math.max(500, Math.floor(this.#options.leaseMs / 3)),
    );
    heartbeat.unref();
    try {
      while (!this.#stopping) {
        const endpoint = await db
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('id', '=', endpointId)
          .executeTakeFirst();
        if (endpoint === undefined || endpoint.disabled === 1 || endpoint.lease_owner !== this.owner) return;
        const now = new Date(this.#options.now()).toISOString();
        const due = await db
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where('endpoint_id', '=', endpointId)
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .orderBy('sequence')
          .orderBy('created_at')
          .limit(this.#options.batch)
          .execute();
        if (due.length === 0) return;
        const events = new Map(
          (
            await db
              .selectFrom('events')
              .selectAll()
              .where('id', 'in', [...new Set(due.map((d) => d.event_id))])
              .execute()
          ).map((e) => [e.id, e]),
        );
        const secrets = this.#secrets(endpoint);
        const url = this.#url(endpoint);
        // Until recorded a delivery is still pending, so a crash in between only means it is sent
        // again (same webhook-id); a round's attempts are all recorded before the next round reads.
        const recorder = new AttemptRecorder(this.#options.store, this.#options.outbox, this.#options.recordEvery);
        try {
          for (const delivery of due) {
            if (this.#stopping || !(await this.#renew(endpointId, lease))) return;
            recorder.check();
            const event = events.get(delivery.event_id);
            if (event === undefined) continue;
            const rec = await this.#send(endpoint, url, secrets, delivery, eventJson(event));
            if (attemptSucceeded(rec.result)) recorder.success(rec);
            else if ((await recorder.failure(rec)) === 'disabled') return;
          }
        } finally {
          await recorder.settle();
        }
      }
    } finally {
      clearInterval(heartbeat);
      await this.#release(endpointId).catch(() => undefined);
    }
  }

  #secrets(endpoint: WebhookEndpointTable): string[] {
    const { box } = this.#options;
    const secrets = [box.open(endpoint.secret_sealed, secretOwner(endpoint.id)).toString('utf8')];
    const nowIso = new Date(this.#options.now()).toISOString();
    if (
      endpoint.previous_secret_sealed !== null &&
      endpoint.previous_secret_expires_at !== null &&
      endpoint.previous_secret_expires_at > nowIso
    ) {
      secrets.push(box.open(endpoint.previous_secret_sealed, secretOwner(endpoint.id, 'previous')).toString('utf8'));
    }
    return secrets;
  }

  /** Where the endpoint's deliveries go, in clear: opened once per endpoint and sealed text. */
  #url(endpoint: WebhookEndpointTable): string {
    const known = this.#urls.get(endpoint.id);
    if (known !== undefined && known.sealed === endpoint.url_sealed) return known.url;
    const url = this.#options.box.open(endpoint.url_sealed, urlOwner(endpoint.id)).toString('utf8');
    this.#urls.set(endpoint.id, { sealed: endpoint.url_sealed, url });
    return url;
  }

  async #send(
    endpoint: WebhookEndpointTable,
    url: string,
    secrets: string[],
    delivery: WebhookDeliveryTable,
    body: string,
  ): Promise<AttemptRecord> {
    const startedMs = this.#options.now();
    const timestamp = Math.floor(startedMs / 1000);
    const headers = webhookHeaders(secrets, delivery.event_id, timestamp, body);
    const result = await this.#options.sender.send(url, headers, body, this.#options.timeoutMs);
    this.#options.metrics.observe(endpoint.id, result, startedMs - Date.parse(delivery.created_at));
    return { endpoint, delivery, result, startedMs, now: this.#options.now() };
  }
}
