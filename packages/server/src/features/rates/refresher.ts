import { randomBytes } from 'node:crypto';
import type { Caches } from '../../cache/caches.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Resolver } from '../../outbound/guard.js';
import type { Db, Store } from '../../store/store.js';
import { holdLease, LeasedLoops, LeaseLost, mayHoldLeases, releaseLeases } from '../../cluster/leased-loops.js';
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

const LEASES = { table: 'rate_sources', key: 'id' } as const;

/** Takes or renews the source's lease inside the caller's transaction; LeaseLost when another instance holds it. */
const holdSourceLease = (trx: Db, id: string, owner: string, nowMs: number, leaseMs: number): Promise<void> =>
  holdLease(trx, LEASES, id, { owner, now: () => nowMs, leaseMs });

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
  readonly #http: ReturnType<typeof sourceFetcher>;
  readonly #loops: LeasedLoops;

  constructor(opts: RefresherOptions) {
    this.#o = { leaseMs: 30_000, reloadMs: 10_000, timeoutMs: 10_000, maxAnswerBytes: 2 * 1024 * 1024, ...opts };
    this.#http = sourceFetcher({
      sandbox: opts.sandbox,
      resolve: opts.resolve,
      timeoutMs: this.#o.timeoutMs,
      maxAnswerBytes: this.#o.maxAnswerBytes,
    });
    this.#loops = new LeasedLoops({
      what: 'rate source',
      reloadMs: this.#o.reloadMs,
      log: this.#o.log,
      keys: async () => (await listSources(this.#o.store.db)).filter((s) => s.enabled === 1).map((s) => s.id),
      turn: (id) => this.#turn(id),
    });
  }

  start(): void {
    this.#loops.start();
  }

  /** A source changed on this instance: look at the list now. */
  wake(): void {
    this.#loops.wake();
  }

  async stop(): Promise<void> {
    await this.#loops.stop();
    if (mayHoldLeases(LEASES, this.owner)) {
      await this.#o.store.writeTransaction((trx) => releaseLeases(trx, LEASES, this.owner)).catch(() => undefined);
    }
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
      await store.writeTransaction((trx) => holdSourceLease(trx, id, this.owner, now(), leaseMs));
    } catch (err) {
      if (err instanceof LeaseLost) return { leader: false, reason: 'standby' };
      throw err;
    }
    const url = this.#baseUrl(s);
    try {
      return await this.#refreshFrom(s, url, leaseMs);
    } catch (err) {
      // Not the source's own failure (the store, a bug): it leaves with the URL masked, since
      // whoever catches it logs its message; the original is not kept as a cause for the same reason.
      throw new Error(scrub(err instanceof Error ? err.message : String(err), url));
    }
  }

  async #refreshFrom(s: RateSourceRow, url: string, leaseMs: number): Promise<RefreshOutcome> {
    const { store, now } = this.#o;
    const id = s.id;
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
        await holdSourceLease(trx, id, this.owner, now(), leaseMs);
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

  /** One turn of a source's loop; returns how long to wait before the next. */
  async #turn(id: string): Promise<number> {
    const every = ((await findSource(this.#o.store.db, id).catch(() => undefined))?.refresh_seconds ?? 60) * 1000;
    try {
      const r = await this.refresh(id);
      if (r.leader && !r.ok) this.#o.log.warn(`rate source ${id}: ${r.error}`);
    } catch (err) {
      // refresh() scrubs the source's URL from what it throws; the message is all that is logged.
      this.#o.log.warn(`rate source ${id}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return every;
  }
}
