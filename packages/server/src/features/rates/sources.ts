import { HostpayError } from '../../errors.js';
import { invalid } from '../../admin/deps.js';
import { requireAssetRow } from '../catalog/queries.js';
import type { Caches } from '../../cache/caches.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Resolver } from '../../outbound/guard.js';
import type { Store } from '../../store/store.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { aggregatePairs } from './feed.js';
import { PROVIDERS, SOURCE_KINDS } from './providers/index.js';
import { findSource, listSources, pairsOf, type RateSourceRow } from './queries.js';
import { checkSourceUrl, maskSourceUrl, sourceOwner } from './source-url.js';
import { ratesChanged } from './write.js';

export interface SourceRequest {
  kind: string;
  baseUrl?: string | null | undefined;
  pairs: string[];
  refreshSeconds?: number | undefined;
  maxAgeSeconds?: number | undefined;
  enabled?: boolean | undefined;
}

export const SOURCE_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;
export const MIN_REFRESH_SECONDS = 5;
export const MAX_REFRESH_SECONDS = 86_400;
/** The ECB publishes once a working day: its rates stay good over a weekend. */
const DEFAULTS: Record<string, { refresh: number; maxAge: number }> = {
  ecb: { refresh: 3600, maxAge: 4 * 86_400 },
};
const defaultsOf = (kind: string) => DEFAULTS[kind] ?? { refresh: 60, maxAge: 600 };

type Health = 'up' | 'down' | 'unknown' | 'disabled';

export function sourceView(s: RateSourceRow, nowMs: number) {
  const at = new Date(nowMs).toISOString();
  const leaseLive = s.lease_owner !== null && s.lease_expires_at !== null && s.lease_expires_at > at;
  const state: Health =
    s.enabled === 0
      ? 'disabled'
      : s.last_success_at === null && s.last_error_at === null
        ? 'unknown'
        : s.last_error_at !== null && (s.last_success_at === null || s.last_error_at > s.last_success_at)
          ? 'down'
          : 'up';
  return {
    id: s.id,
    kind: s.kind,
    baseUrl: s.base_url_shown ?? PROVIDERS[s.kind]?.defaultBaseUrl ?? null,
    pairs: pairsOf(s),
    refreshSeconds: s.refresh_seconds,
    maxAgeSeconds: s.max_age_seconds,
    enabled: s.enabled === 1,
    health: {
      state,
      lastSuccessAt: s.last_success_at,
      lastError: s.last_error,
      lastErrorAt: s.last_error_at,
      latencyMs: s.last_latency_ms,
      refreshedBy: leaseLive ? s.lease_owner : null,
    },
    createdAt: s.created_at,
    updatedAt: s.updated_at,
  };
}

/** What the audit log keeps of a source: its settings (the URL masked), not its health. */
const auditView = (s: RateSourceRow) => {
  const { health: _health, ...settings } = sourceView(s, 0);
  return settings;
};

export interface SourceAdminOptions {
  store: Store;
  box: SecretBox;
  caches: Caches;
  sandbox: boolean;
  resolve: Resolver;
  now: () => number;
  /** The refresher of this instance: a nudge after a change. */
  changed: () => void;
}

/**
 * The operators' rate sources (docs/rates.md): which provider, through which address, for which
 * pairs, how often, how long its answers may be quoted. The base URL passes the outbound address
 * guard when it is set (and again on every connection); it is sealed at rest and shown masked.
 */
export function sourceAdmin(opts: SourceAdminOptions) {
  const { store, box } = opts;
  const db = store.db;

  async function require(id: string): Promise<RateSourceRow> {
    const s = await findSource(db, id);
    if (s === undefined)
      throw new HostpayError(
        'NOT_FOUND',
        `rate source ${id} does not exist: set it up with PUT /admin/v1/rate-sources/${id} (hostpay rates source set ${id} --kind KIND --pairs BTC/EUR)`,
      );
    return s;
  }

  async function checkPairs(pairs: string[]): Promise<string[]> {
    if (pairs.length === 0 || pairs.length > 100) invalid('pairs: give 1 to 100 pairs such as "BTC/EUR"');
    const out: string[] = [];
    for (const [i, text] of pairs.entries()) {
      const m = /^([A-Za-z0-9]{2,12})\/([A-Za-z0-9]{2,12})$/.exec(text);
      if (m === null) invalid(`pairs[${i}] must be BASE/QUOTE, e.g. BTC/EUR; got ${JSON.stringify(text)}`);
      const base = (await requireAssetRow(db, m[1]!)).symbol;
      const quote = (await requireAssetRow(db, m[2]!)).symbol;
      if (base === quote) invalid(`pairs[${i}]: a rate needs two different currencies`);
      const pair = `${base}/${quote}`;
      if (out.includes(pair)) invalid(`pairs[${i}]: ${pair} is listed twice`);
      out.push(pair);
    }
    return out;
  }

  return {
    async setRateSource(id: string, req: SourceRequest, ctx: AuditContext) {
      if (!SOURCE_ID.test(id))
        invalid('the source id must be 1 to 40 lower-case letters, digits, - or _, starting with a letter or digit');
      const provider = PROVIDERS[req.kind];
      if (provider === undefined) invalid(`kind must be one of ${SOURCE_KINDS.join(', ')}`);
      if (req.kind === 'demo' && !opts.sandbox)
        invalid('kind demo (made-up prices) is for sandbox servers only: choose coinbase, kraken, binance or ecb');
      const before = await findSource(db, id);
      const pairs = await checkPairs(req.pairs);
      const d = defaultsOf(req.kind);
      const refresh = req.refreshSeconds ?? before?.refresh_seconds ?? d.refresh;
      if (!Number.isInteger(refresh) || refresh < MIN_REFRESH_SECONDS || refresh > MAX_REFRESH_SECONDS)
        invalid(`refreshSeconds must be a whole number from ${MIN_REFRESH_SECONDS} to ${MAX_REFRESH_SECONDS}`);
      const maxAge = req.maxAgeSeconds ?? before?.max_age_seconds ?? Math.max(d.maxAge, 2 * refresh);
      if (!Number.isInteger(maxAge) || maxAge < refresh || maxAge > 30 * 86_400)
        invalid(
          `maxAgeSeconds must be a whole number from refreshSeconds (${refresh}) to 2592000 (30 days): a rate cannot be expected fresher than it is refreshed`,
        );
      let url: { sealed: string | null; shown: string | null } = { sealed: null, shown: null };
      if (req.baseUrl !== undefined && req.baseUrl !== null) {
        if (provider.defaultBaseUrl === null) invalid(`kind ${req.kind} makes no request: leave baseUrl out`);
        if (req.baseUrl.length > 2048)
          throw new HostpayError('INVALID_URL', 'baseUrl must be at most 2048 characters', { field: 'baseUrl' });
        const href = (await checkSourceUrl(req.baseUrl, { sandbox: opts.sandbox, resolve: opts.resolve })).href;
        url = { sealed: box.seal(href, sourceOwner(id)), shown: maskSourceUrl(href) };
      } else if (req.baseUrl === undefined && before !== undefined && before.kind === req.kind) {
        url = { sealed: before.base_url_sealed, shown: before.base_url_shown };
      }
      const at = new Date(opts.now()).toISOString();
      const row: RateSourceRow = {
        id,
        kind: req.kind,
        base_url_sealed: url.sealed,
        base_url_shown: url.shown,
        pairs: JSON.stringify(pairs),
        refresh_seconds: refresh,
        max_age_seconds: maxAge,
        enabled: (req.enabled ?? before?.enabled !== 0) ? 1 : 0,
        last_success_at: before?.last_success_at ?? null,
        last_error: before?.last_error ?? null,
        last_error_at: before?.last_error_at ?? null,
        last_latency_ms: before?.last_latency_ms ?? null,
        lease_owner: before?.lease_owner ?? null,
        lease_expires_at: before?.lease_expires_at ?? null,
        created_at: before?.created_at ?? at,
        updated_at: at,
      };
      const saved = await store.writeTransaction(async (trx) => {
        if (before === undefined) await trx.insertInto('rate_sources').values(row).execute();
        else {
          const { id: _id, created_at: _c, ...fields } = row;
          await trx.updateTable('rate_sources').set(fields).where('id', '=', id).execute();
        }
        // Answers for pairs the source no longer provides, or from another kind, no longer count.
        let stale = trx.deleteFrom('rate_observations').where('source_id', '=', id);
        if (before?.kind === req.kind)
          stale = stale.where((eb) =>
            eb.not(
              eb.or(pairs.map((p) => eb.and([eb('base', '=', p.split('/')[0]!), eb('quote', '=', p.split('/')[1]!)]))),
            ),
          );
        await stale.execute();
        await aggregatePairs(trx, [...pairs, ...(before ? pairsOf(before) : [])], opts.now());
        await recordAudit(trx, ctx, {
          action: 'rate_source.set',
          objectType: 'rate_source',
          objectId: id,
          before: before ? auditView(before) : null,
          after: auditView(row),
        });
        return (await findSource(trx, id))!;
      });
      await ratesChanged(opts.caches);
      opts.changed();
      return sourceView(saved, opts.now());
    },

    getRateSource: async (id: string) => sourceView(await require(id), opts.now()),

    listRateSources: async () => (await listSources(db)).map((s) => sourceView(s, opts.now())),

    /** Removes a source and its answers; the rates it fed are recomputed from the other sources, or age. */
    async deleteRateSource(id: string, ctx: AuditContext) {
      const before = await require(id);
      await store.writeTransaction(async (trx) => {
        await trx.deleteFrom('rate_observations').where('source_id', '=', id).execute();
        await trx.deleteFrom('rate_sources').where('id', '=', id).execute();
        await aggregatePairs(trx, pairsOf(before), opts.now());
        await recordAudit(trx, ctx, {
          action: 'rate_source.delete',
          objectType: 'rate_source',
          objectId: id,
          before: auditView(before),
          after: null,
        });
      });
      await ratesChanged(opts.caches);
      opts.changed();
      return { id, deleted: true as const };
    },
  };
}

export type SourceAdmin = ReturnType<typeof sourceAdmin>;
