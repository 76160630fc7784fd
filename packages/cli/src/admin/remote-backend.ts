import { UsageError } from '../output.js';
import type { AdminBackend, FeeTierRequest, KeySettings, Posting, PostingResult } from './backend.js';
import { adminHttp, seg, type AdminHttpOptions } from './http.js';
import { catalogBackend } from './catalog-backend.js';
import { adminDownload } from './reports.js';

/**
 * A server's admin API (/admin/v1). Every change is audited on the server under the name of the
 * operator token, and carries an Idempotency-Key, so repeating a command with the same
 * `--idempotency-key` after a network failure applies it once.
 */
export function remoteBackend(opts: AdminHttpOptions): AdminBackend {
  const call = adminHttp(opts);
  return {
    kind: 'remote',
    target: opts.url,
    reports: {
      download: (kind, q) => adminDownload(opts, `/reports/${seg(kind)}`, { ...q }),
      reconciliation: (q) => call('GET', '/reports/reconciliation', { query: { from: q.from, to: q.to } }),
    },
    merchants: {
      create: (name, w) => call('POST', '/merchants', { body: { name }, write: w ?? {} }),
      get: (id) => call('GET', `/merchants/${seg(id)}`),
      list: (q) => call('GET', '/merchants', { query: { limit: q.limit, cursor: q.cursor, status: q.status } }),
      rename: (id, name, w) => call('PATCH', `/merchants/${seg(id)}`, { body: { name }, write: w ?? {} }),
      suspend: (id, w) => call('POST', `/merchants/${seg(id)}/suspend`, { body: {}, write: w ?? {} }),
      resume: (id, w) => call('POST', `/merchants/${seg(id)}/resume`, { body: {}, write: w ?? {} }),
      update: (id, change, w) => call('PATCH', `/merchants/${seg(id)}`, { body: defined(change), write: w ?? {} }),
      inviteUser: (id, email, role, w) =>
        call('POST', `/merchants/${seg(id)}/user-invitations`, { body: defined({ email, role }), write: w ?? {} }),
      userResetLink: (id, email, w) =>
        call('POST', `/merchants/${seg(id)}/user-reset-links`, { body: { email }, write: w ?? {} }),
    },
    rateSpread: {
      get: () => call('GET', '/rate-spread'),
      set: (percent, w) => call('PUT', '/rate-spread', { body: { percent }, write: w ?? {} }),
    },
    transfers: {
      report: (req, w) => call('POST', '/transfers', { body: defined({ ...req }), write: w ?? {} }),
      list: (q) =>
        call('GET', '/transfers', {
          query: { limit: q.limit, cursor: q.cursor, matched: q.matched, chain: q.chain, checkoutId: q.checkoutId },
        }),
      retract: (id, w) => call('POST', `/transfers/${seg(id)}/retract`, { body: {}, write: w ?? {} }),
      attach: (id, checkoutId, w) =>
        call('POST', `/transfers/${seg(id)}/attach`, { body: { checkoutId }, write: w ?? {} }),
    },
    checkouts: {
      list: (q) => call('GET', '/checkouts', { query: { ...q } }),
      get: (id) => call('GET', `/checkouts/${seg(id)}`),
      settle: (id, pick, w) => call('POST', `/checkouts/${seg(id)}/settle`, { body: defined(pick), write: w ?? {} }),
      reject: (id, w) => call('POST', `/checkouts/${seg(id)}/reject`, { body: {}, write: w ?? {} }),
    },
    payouts: {
      list: (q) =>
        call('GET', '/payouts', {
          query: { limit: q.limit, cursor: q.cursor, status: q.status, merchantId: q.merchantId, chain: q.chain },
        }),
      get: (id) => call('GET', `/payouts/${seg(id)}`),
      approve: (id, w) => call('POST', `/payouts/${seg(id)}/approve`, { body: {}, write: w ?? {} }),
      reject: (id, reason, w) => call('POST', `/payouts/${seg(id)}/reject`, { body: { reason }, write: w ?? {} }),
      cancel: (id, w) => call('POST', `/payouts/${seg(id)}/cancel`, { body: {}, write: w ?? {} }),
      sent: (id, txHash, w) => call('POST', `/payouts/${seg(id)}/sent`, { body: { txHash }, write: w ?? {} }),
      complete: (id, w) => call('POST', `/payouts/${seg(id)}/complete`, { body: {}, write: w ?? {} }),
      fail: (id, reason, w) => call('POST', `/payouts/${seg(id)}/fail`, { body: { reason }, write: w ?? {} }),
      chain: (id) => call('GET', `/payouts/${seg(id)}/hot-wallet`),
      cancelByReplacement: (id, w) =>
        call('POST', `/payouts/${seg(id)}/cancel-by-replacement`, { body: {}, write: w ?? {} }),
      rebroadcast: (id, w) => call('POST', `/payouts/${seg(id)}/rebroadcast`, { body: {}, write: w ?? {} }),
      export: (q) => call('GET', '/payouts/export', { query: { format: q.format, chain: q.chain } }),
      activateDestination: (id, w) =>
        call('POST', `/payout-destinations/${seg(id)}/activate`, { body: {}, write: w ?? {} }),
      setFee: (req, w) => call('PUT', '/payout-fees', { body: req, write: w ?? {} }),
      listFees: () => call('GET', '/payout-fees'),
    },
    keys: {
      create: (merchantId, settings, w) =>
        call('POST', `/merchants/${seg(merchantId)}/keys`, { body: keyBody(settings), write: w ?? {} }),
      list: (q) =>
        call('GET', '/keys', {
          query: { limit: q.limit, cursor: q.cursor, merchantId: q.merchantId, status: q.status },
        }),
      get: (id) => call('GET', `/keys/${seg(id)}`),
      update: (id, settings, w) => call('PATCH', `/keys/${seg(id)}`, { body: keyBody(settings), write: w ?? {} }),
      revoke: (id, w) => call('POST', `/keys/${seg(id)}/revoke`, { body: {}, write: w ?? {} }),
      rotate: (id, overlapUntil, w) =>
        call('POST', `/keys/${seg(id)}/rotate`, { body: defined({ overlapUntil }), write: w ?? {} }),
      grant: (keyId, merchantId, w) =>
        call('POST', `/keys/${seg(keyId)}/grants`, { body: { merchantId }, write: w ?? {} }),
      ungrant: (keyId, merchantId, w) =>
        call('DELETE', `/keys/${seg(keyId)}/grants/${seg(merchantId)}`, { write: w ?? {} }),
      grants: (keyId) => call('GET', `/keys/${seg(keyId)}/grants`),
    },
    wallets: {
      create: (req, w) =>
        call('POST', `/merchants/${seg(req.merchantId)}/wallets`, {
          body: { asset: req.asset, chain: req.chain, active: req.active },
          write: w ?? {},
        }),
      get: (id) => call('GET', `/wallets/${seg(id)}`),
      list: (q) =>
        call('GET', '/wallets', {
          query: {
            limit: q.limit,
            cursor: q.cursor,
            merchantId: q.merchantId,
            asset: q.asset,
            chain: q.chain,
            active: q.active,
          },
        }),
      setActive: (id, active, w) =>
        call('POST', `/wallets/${seg(id)}/${active ? 'activate' : 'deactivate'}`, { body: {}, write: w ?? {} }),
      async post(req, w) {
        // The posting's own idempotency key and the request's are the same: a retried command
        // replays the request, and the ledger would refuse a second posting under the key anyway.
        const body = defined({ kind: req.kind, amount: req.amount, idempotencyKey: w?.idempotencyKey });
        const { result, replayed } = await call.exchange('POST', `/wallets/${seg(req.walletId)}/postings`, {
          body,
          write: w ?? {},
        });
        const res = result as { posting: Posting; replayed: boolean };
        // A repeated request gets the first answer again (replayed: false inside it): nothing
        // was applied this time either way.
        const posting: PostingResult = { ...res.posting, replayed: res.replayed || replayed };
        return posting;
      },
      postings: (walletId, q) =>
        call('GET', `/wallets/${seg(walletId)}/postings`, { query: { limit: q.limit, cursor: q.cursor } }),
    },
    assets: {
      networks: (symbol) => call('GET', `/assets/${seg(symbol)}/networks`),
    },
    catalog: catalogBackend(call),
    fees: {
      set: (req, w) => call('PUT', '/fees', { body: feeBody(req), write: w ?? {} }),
      // The API names the default schedule `default`; the backend interface names it ''.
      list: (q) =>
        call('GET', '/fees', {
          query: { merchantId: q.merchantId === '' ? 'default' : q.merchantId, currency: q.currency },
        }),
      delete: (id, w) => call('DELETE', `/fees/${seg(id)}`, { write: w ?? {} }),
      preview: (q) =>
        call('GET', '/fees/preview', { query: { merchantId: q.merchantId, amount: q.amount, currency: q.currency } }),
    },
    settlement: {
      set: (req, w) => call('PUT', '/settlement-currencies', { body: defined(req), write: w ?? {} }),
      list: () => call('GET', '/settlement-currencies'),
    },
    rates: {
      set: (req, w) => call('PUT', '/rates', { body: defined(req), write: w ?? {} }),
      list: () => call('GET', '/rates'),
      remove: (base, quote, w) => call('DELETE', `/rates/${seg(base)}/${seg(quote)}`, { write: w ?? {} }),
      setPair: (base, quote, req, w) =>
        call('PUT', `/rate-pairs/${seg(base)}/${seg(quote)}`, { body: defined(req), write: w ?? {} }),
      pairs: () => call('GET', '/rate-pairs'),
      sources: {
        set: (id, req, w) => call('PUT', `/rate-sources/${seg(id)}`, { body: defined(req), write: w ?? {} }),
        get: (id) => call('GET', `/rate-sources/${seg(id)}`),
        list: () => call('GET', '/rate-sources'),
        remove: (id, w) => call('DELETE', `/rate-sources/${seg(id)}`, { write: w ?? {} }),
      },
    },
    audit: {
      list: (q) => call('GET', '/audit', { query: { ...q } }),
    },
    masterKey: {
      rotate: async () => {
        throw new UsageError(
          'master-key rotate runs on the store, not through --admin-url: it needs the master keys themselves (see hostpay master-key rotate --help)',
        );
      },
    },
    close: async () => undefined,
  };
}

/** The object without its undefined fields (JSON.stringify drops them too; this keeps types honest). */
function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const keyBody = (s: KeySettings) =>
  defined({
    scopes: s.scopes,
    rateLimitPerMinute: s.rateLimitPerMinute,
    expiresAt: s.expiresAt,
    ipAllowList: s.ipAllowList,
    label: s.label,
    requireSignatureV2: s.requireSignatureV2,
  });

const feeBody = (r: FeeTierRequest) => defined({ ...r });
