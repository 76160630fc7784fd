import { randomBytes } from 'node:crypto';
import type { Caches } from '../../cache/caches.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Resolver } from '../../outbound/guard.js';
import type { Db, Store } from '../../store/store.js';
import { aggregatePairs, type PairOutcome } from './feed.js';
import type { RateMetrics } from './metrics.js';
import { PROVIDERS, type Pair } from './providers/index.js';
import { findSource, listSources, pairsOf, type RateSourceRow } from './queries.js';
import { scrub, sourceFetcher, sourceOwner } from './source-url.js';
import { ratesChanged } from './write.js';

export interface RefresherOptions {
  store: Store;
  box: SecretBox;
  caches: Caches;
  metrics: RateMetrics;
  sandbox: boolean;
  resolve: Resolver;
  now: () => number;
  log: { warn(msg: string): void };
  /** Shortest lease on a source, ms; a source's lease also outlives three of its refreshes. Default 30,000. */
  leaseMs?: number;
  /** How often the list of sources is read again, ms. Default 10,000. */
  reloadMs?: number;
  /** Deadline of one request to a source, ms. Default 10,000. */
  timeoutMs?: number;
  /** Largest answer read from a source. Default 2 MB. */
  maxAnswerBytes?: number;
}

export type RefreshOutcome =
  | { leader: false; reason: 'not_configured' | 'disabled' | 'standby' }
  | { leader: true; ok: true; latencyMs: number; observed: number; pairs: PairOutcome[] }
  | { leader: true; ok: false; latencyMs: number; error: string };

class LeaseLost extends Error {}

/** Takes or renews the source's lease inside the caller's transaction; LeaseLost when another instance holds it. */
async function holdLease(trx: Db, id: string, owner: string, nowMs: number, leaseMs: number): Promise<void> {
  const now = new Date(nowMs).toISOString();
  const r = await trx
    .updateTable('rate_sources')
    .set({ lease_owner: owner, lease_expires_at: new Date(nowMs + leaseMs).toISOString() })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('lease_owner', '=', owner), eb('lease_owner', 'is', null), eb('lease_expires_at', '<', now)]),
    )
    .executeTakeFirst();
  if ((r.numUpdatedRows ?? 0n) === 0n) throw new LeaseLost();
}

export const parsePair = (text: string): Pair => {
  const [base, quote] = text.split('/') as [string, string];
  return { base, quote };
};

/**
 * The rate feeds of one instance: a loop per enabled source, each under a lease (one row, one
 * conditional UPDATE, as the chain watcher's), so one instance across the cluster refreshes a
 * source; when it dies, another takes the source once the lease expires. A refresh asks the
 * provider, keeps its answer per pair (`rate_observations`) and recomputes those pairs' rates
 * (feed.ts). A failure is recorded on the source (health) and never leaves the loop.
 */
export class RateRefresher {
  readonly owner = `rrf_${randomBytes(8).toString('hex')}`;
  readonly #o: RefresherOptions &
    Required<Pick<RefresherOptions, 'leaseMs' | 'reloadMs' | 'timeoutMs' | 'maxAnswerBytes'>>;
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #running = new Set<Promise<unknown>>();
  readonly #http: ReturnType<typeof sourceFetcher>;
  #reload: NodeJS.Timeout | undefined;
  #started = false;

  constructor(opts: RefresherOptions) {
    this.#o = { leaseMs: 30_000, reloadMs: 10_000, timeoutMs: 10_000, maxAnswerBytes: 2 * 1024 * 1024, ...opts };
    this.#http = sourceFetcher({
      sandbox: opts.sandbox,
      resolve: opts.resolve,
      timeoutMs: this.#o.timeoutMs,
      maxAnswerBytes: this.#o.maxAnswerBytes,
    });
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    const again = () => {
      this.#reload = setTimeout(() => void this.#sync().finally(again), this.#o.reloadMs);
      this.#reload.unref();
    };
    void this.#sync().finally(again);
  }

  /** A source changed on this instance: look at the list now. */
  wake(): void {
    if (this.#started) void this.#sync();
  }

  async stop(): Promise<void> {
    this.#started = false;
    clearTimeout(this.#reload);
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
    await Promise.allSettled([...this.#running]);
    await this.#o.store
      .writeTransaction((trx) =>
        trx
          .updateTable('rate_sources')
          .set({ lease_owner: null, lease_expires_at: null })
          .where('lease_owner', '=', this.owner)
          .execute(),
      )
      .catch(() => undefined);
    this.#http.close();
  }

  /** One refresh of one source, now (the loops call it; tests drive it by hand). Never throws for the source's own failures. */
  async refresh(id: string): Promise<RefreshOutcome> {
    const { store, now } = this.#o;
    const s = await findSource(store.db, id);
    if (s === undefined) return { leader: false, reason: 'not_configured' };
    if (s.enabled === 0) return { leader: false, reason: 'disabled' };
    const leaseMs = Math.max(this.#o.leaseMs, 3 * s.refresh_seconds * 1000);
    try {
      await store.writeTransaction((trx) => holdLease(trx, id, this.owner, now(), leaseMs));
    } catch (err) {
      if (err instanceof LeaseLost) return { leader: false, reason: 'standby' };
      throw err;
    }
    const url = this.#baseUrl(s);
    const started = performance.now();
    let answer: Map<string, string>;
    try {
      answer = await PROVIDERS[s.kind]!.fetch({
        baseUrl: url.replace(/\/+$/, ''),
        pairs: pairsOf(s).map(parsePair),
        get: (u) => this.#http.get(u),
        now: now(),
      });
    } catch (err) {
      const latencyMs = Math.round(performance.now() - started);
      const error = scrub(err instanceof Error ? err.message : String(err), url);
      this.#o.metrics.up.set({ source: id }, 0);
      this.#o.metrics.latency.observe({ source: id }, latencyMs / 1000);
      await store
        .writeTransaction((trx) =>
          trx
            .updateTable('rate_sources')
            .set({ last_error: error, last_error_at: new Date(now()).toISOString(), last_latency_ms: latencyMs })
            .where('id', '=', id)
            .where('lease_owner', '=', this.owner)
            .execute(),
        )
        .catch(() => undefined);
      return { leader: true, ok: false, latencyMs, error };
    }
    const latencyMs = Math.round(performance.now() - started);
    const at = new Date(now()).toISOString();
    let pairs: PairOutcome[];
    try {
      pairs = await store.writeTransaction(async (trx) => {
        await holdLease(trx, id, this.owner, now(), leaseMs);
        for (const [pair, rate] of answer) {
          const { base, quote } = parsePair(pair);
          await trx
            .insertInto('rate_observations')
            .values({ source_id: id, base, quote, rate, fetched_at: at })
            .onConflict((oc) => oc.columns(['source_id', 'base', 'quote']).doUpdateSet({ rate, fetched_at: at }))
            .execute();
        }
        await trx
          .updateTable('rate_sources')
          .set({ last_success_at: at, last_latency_ms: latencyMs })
          .where('id', '=', id)
          .execute();
        return aggregatePairs(trx, answer.keys(), now());
      });
    } catch (err) {
      if (err instanceof LeaseLost) return { leader: false, reason: 'standby' };
      throw err;
    }
    await ratesChanged(this.#o.caches);
    this.#o.metrics.up.set({ source: id }, 1);
    this.#o.metrics.latency.observe({ source: id }, latencyMs / 1000);
    return { leader: true, ok: true, latencyMs, observed: answer.size, pairs };
  }

  #baseUrl(s: RateSourceRow): string {
    if (s.base_url_sealed !== null) return this.#o.box.open(s.base_url_sealed, sourceOwner(s.id)).toString('utf8');
    return PROVIDERS[s.kind]?.defaultBaseUrl ?? 'demo:';
  }

  /** Starts a loop for every enabled source without one; ends those of sources gone or disabled. */
  async #sync(): Promise<void> {
    if (!this.#started) return;
    let ids: string[];
    try {
      ids = (await listSources(this.#o.store.db)).filter((s) => s.enabled === 1).map((s) => s.id);
    } catch (err) {
      this.#o.log.warn(`rate feeds: cannot read the sources: ${(err as Error).message}`);
      return;
    }
    for (const id of ids) if (!this.#timers.has(id)) this.#schedule(id, 0);
    for (const [id, t] of this.#timers) {
      if (ids.includes(id)) continue;
      clearTimeout(t);
      this.#timers.delete(id);
    }
  }

  #schedule(id: string, ms: number): void {
    const t = setTimeout(() => {
      const turn = this.#turn(id).then((next) => {
        this.#running.delete(turn);
        if (this.#started && this.#timers.get(id) === t) this.#schedule(id, next);
      });
      this.#running.add(turn);
    }, ms);
    t.unref();
    this.#timers.set(id, t);
  }

  /** One turn of a source's loop; returns how long to wait before the next. */
  async #turn(id: string): Promise<number> {
    const every = ((await findSource(this.#o.store.db, id).catch(() => undefined))?.refresh_seconds ?? 60) * 1000;
    try {
      const r = await this.refresh(id);
      if (r.leader && !r.ok) this.#o.log.warn(`rate source ${id}: ${r.error}`);
    } catch (err) {
      this.#o.log.warn(`rate source ${id}: ${(err as Error).message}`);
    }
    return every;
  }
}
