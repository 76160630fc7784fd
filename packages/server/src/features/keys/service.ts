import { randomBytes } from 'node:crypto';
import { DEFAULT_SCOPES, SCOPES, type Scope } from '@hostpay/protocol';
import { parseCidr } from '../../auth/cidr.js';
import { HostpayError } from '../../errors.js';
import { newId, nowIso } from '../../store/ids.js';
import type { ApiKeyTable } from './tables.js';
import type { Db } from '../../store/store.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { invalid, required, type AdminDeps } from '../../admin/deps.js';
import { requireMerchantRow } from '../merchants/queries.js';
import { ISO_TIME_HELP, isoTime } from '../../http/iso-time.js';
import { page, type PageRequest } from '../../admin/pagination.js';
import { keysCreatedBy } from './creator.js';

export interface KeySettings {
  scopes?: string[] | undefined;
  rateLimitPerMinute?: number | null | undefined;
  expiresAt?: string | null | undefined;
  ipAllowList?: string[] | null | undefined;
  label?: string | null | undefined;
  /** Refuse version-1 signatures (which do not cover method and path) for this key. */
  requireSignatureV2?: boolean | undefined;
}

/** A key as operators see it: everything but the secret, which is never shown again. */
export interface KeyView {
  id: string;
  merchantId: string;
  label: string | null;
  scopes: Scope[];
  status: 'active' | 'revoked';
  expiresAt: string | null;
  ipAllowList: string[] | null;
  rateLimitPerMinute: number | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  rotatedTo: string | null;
  requireSignatureV2: boolean;
}

export interface CreatedApiKey extends KeyView {
  apiKey: string;
  /** Shown once, here; stored only sealed under the master key. */
  apiSecret: string;
}

export const keyView = (r: ApiKeyTable): KeyView => ({
  id: r.id,
  merchantId: r.merchant_id,
  label: r.label,
  scopes: JSON.parse(r.scopes) as Scope[],
  status: r.status,
  expiresAt: r.expires_at,
  ipAllowList: r.ip_allow_list === null ? null : (JSON.parse(r.ip_allow_list) as string[]),
  rateLimitPerMinute: r.rate_limit_per_minute,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
  rotatedTo: r.rotated_to,
  requireSignatureV2: r.require_signature_v2 === 1,
});

/** Checks settings and returns the columns they set (only those given). */
function columns(s: KeySettings): Partial<ApiKeyTable> {
  const out: Partial<ApiKeyTable> = {};
  if (s.scopes !== undefined) {
    const unknown = s.scopes.filter((x) => !(SCOPES as readonly string[]).includes(x));
    if (unknown.length > 0 || s.scopes.length === 0)
      invalid(`scopes must be a non-empty list of ${SCOPES.join(', ')}; unknown: ${unknown.join(', ') || 'none'}`);
    out.scopes = JSON.stringify([...new Set(s.scopes)]);
  }
  if (s.rateLimitPerMinute !== undefined) {
    const r = s.rateLimitPerMinute;
    if (r !== null && (!Number.isInteger(r) || r < 1 || r > 1_000_000_000))
      invalid('rate limit must be a whole number of requests per minute from 1 to 1000000000, or null for the default');
    out.rate_limit_per_minute = r;
  }
  if (s.expiresAt !== undefined) {
    const at = s.expiresAt === null ? null : isoTime(s.expiresAt);
    if (s.expiresAt !== null && at === null) invalid(`expiresAt must be ${ISO_TIME_HELP}`);
    out.expires_at = at;
  }
  if (s.ipAllowList !== undefined) {
    const bad = (s.ipAllowList ?? []).filter((e) => parseCidr(e) === null);
    if (bad.length > 0)
      invalid(
        `not an IP address or CIDR block: ${bad.join(', ')} (e.g. 203.0.113.0/24, 2001:db8::/32; an IPv4-mapped network needs a prefix of 96 or more, e.g. ::ffff:10.0.0.0/104)`,
      );
    if ((s.ipAllowList?.length ?? 0) > 100) invalid('an IP allow-list holds at most 100 entries');
    out.ip_allow_list = s.ipAllowList === null ? null : JSON.stringify(s.ipAllowList.map((e) => e.trim()));
  }
  if (s.requireSignatureV2 !== undefined) out.require_signature_v2 = s.requireSignatureV2 ? 1 : 0;
  if (s.label !== undefined) {
    if (s.label !== null && s.label.length > 200) invalid('label must be at most 200 characters');
    out.label = s.label;
  }
  return out;
}

/** One live successor per key: rotate the successor, not the old key again. */
function alreadyRotated(id: string, successor: string | null): HostpayError {
  return new HostpayError(
    'KEY_ALREADY_ROTATED',
    `API key ${id} was already rotated${successor === null ? '' : ` to ${successor}`}: rotate that key instead, or revoke it and create a new one`,
    successor === null ? undefined : { rotatedTo: successor },
  );
}

const findKey = (db: Db, id: string) =>
  required(db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst(), `API key ${id}`);

/**
 * A caller's own record of the change (the dashboard's security log), written in the key's
 * transaction so that the key and its record land together or not at all.
 */
export type AlsoWrite<T> = (trx: Db, result: T) => Promise<void>;

const also = async <T>(trx: Db, result: T, write: AlsoWrite<T> | undefined): Promise<T> => {
  if (write) await write(trx, result);
  return result;
};

export function keyAdmin({ store, box, caches }: AdminDeps) {
  const db = store.db;

  async function insertKey(
    trx: Db,
    merchantId: string,
    settings: KeySettings,
    ctx: AuditContext,
    action: string,
  ): Promise<CreatedApiKey> {
    await requireMerchantRow(trx, merchantId);
    const id = newId('hp', 24);
    const secret = 'sk_' + randomBytes(32).toString('base64url');
    const row: ApiKeyTable = {
      id,
      merchant_id: merchantId,
      secret_sealed: box.seal(secret, id),
      scopes: JSON.stringify([...DEFAULT_SCOPES]),
      status: 'active',
      expires_at: null,
      ip_allow_list: null,
      rate_limit_per_minute: null,
      created_at: nowIso(),
      revoked_at: null,
      last_used_at: null,
      rotated_to: null,
      label: null,
      require_signature_v2: 0,
      ...columns(settings),
    };
    await trx.insertInto('api_keys').values(row).execute();
    await recordAudit(trx, ctx, { action, objectType: 'api_key', objectId: id, before: null, after: keyView(row) });
    return { ...keyView(row), apiKey: id, apiSecret: secret };
  }

  /** Runs a key write and drops the key cache after it, so the next request sees it. */
  async function write<T>(fn: (trx: Db) => Promise<T>): Promise<T> {
    const result = await store.writeTransaction(fn);
    await caches.invalidate({ kind: 'keys' });
    return result;
  }

  return {
    createApiKey: (merchantId: string, settings: KeySettings, ctx: AuditContext, then?: AlsoWrite<CreatedApiKey>) =>
      write(async (trx) => also(trx, await insertKey(trx, merchantId, settings, ctx, 'api_key.create'), then)),

    getApiKey: async (id: string) => keyView(await findKey(db, id)),

    listApiKeys: (
      req: PageRequest & {
        merchantId?: string | undefined;
        status?: 'active' | 'revoked' | undefined;
        /** Only keys made by this audit actor (`dashboard:<email>`, an operator's name): creator.ts. */
        createdBy?: string | undefined;
      },
    ) => {
      let q = db.selectFrom('api_keys').selectAll();
      if (req.merchantId) q = q.where('merchant_id', '=', req.merchantId);
      if (req.status) q = q.where('status', '=', req.status);
      if (req.createdBy !== undefined) q = q.where('id', 'in', keysCreatedBy(db, req.createdBy));
      return page(q, 'created_at', req, keyView);
    },

    updateApiKey: (id: string, settings: KeySettings, ctx: AuditContext) =>
      write(async (trx) => {
        const before = await findKey(trx, id);
        const after = { ...before, ...columns(settings) };
        await trx.updateTable('api_keys').set(columns(settings)).where('id', '=', id).execute();
        await recordAudit(trx, ctx, {
          action: 'api_key.update',
          objectType: 'api_key',
          objectId: id,
          before: keyView(before),
          after: keyView(after),
        });
        return keyView(after);
      }),

    /** Effective at once: the key and every token it obtained are refused from the next request. */
    revokeApiKey: (id: string, ctx: AuditContext, then?: AlsoWrite<KeyView>) =>
      write(async (trx) => {
        const before = await findKey(trx, id);
        if (before.status === 'revoked') return keyView(before);
        const after: ApiKeyTable = { ...before, status: 'revoked', revoked_at: nowIso() };
        await trx
          .updateTable('api_keys')
          .set({ status: after.status, revoked_at: after.revoked_at })
          .where('id', '=', id)
          .execute();
        await recordAudit(trx, ctx, {
          action: 'api_key.revoke',
          objectType: 'api_key',
          objectId: id,
          before: keyView(before),
          after: keyView(after),
        });
        return also(trx, keyView(after), then);
      }),

    /**
     * A new key with the same settings; the old one keeps working until `overlapUntil` (default
     * 24 h, at most 30 days), then expires — so merchants can deploy the new secret without downtime.
     */
    rotateApiKey: (
      id: string,
      overlapUntil: string | undefined,
      ctx: AuditContext,
      then?: AlsoWrite<{ old: KeyView; new: CreatedApiKey }>,
    ) =>
      write(async (trx) => {
        const old = await findKey(trx, id);
        if (old.status === 'revoked')
          throw new HostpayError('KEY_REVOKED', `API key ${id} is revoked; create a new key instead of rotating it`);
        const given = overlapUntil === undefined ? undefined : isoTime(overlapUntil);
        if (given === null) invalid(`overlapUntil must be ${ISO_TIME_HELP}`);
        const until = given === undefined ? new Date(Date.now() + 86_400_000) : new Date(given);
        if (until.getTime() > Date.now() + 30 * 86_400_000) invalid('overlapUntil must be at most 30 days ahead');
        if (old.rotated_to !== null) throw alreadyRotated(id, old.rotated_to);
        const view = keyView(old);
        const created = await insertKey(
          trx,
          old.merchant_id,
          {
            scopes: view.scopes,
            rateLimitPerMinute: view.rateLimitPerMinute,
            ipAllowList: view.ipAllowList,
            label: view.label,
            requireSignatureV2: view.requireSignatureV2,
          },
          ctx,
          'api_key.create',
        );
        const expires =
          old.expires_at !== null && old.expires_at < until.toISOString() ? old.expires_at : until.toISOString();
        const after: ApiKeyTable = { ...old, expires_at: expires, rotated_to: created.id };
        // Conditional, so two rotations racing on PostgreSQL cannot both give the key a successor.
        const updated = await trx
          .updateTable('api_keys')
          .set({ expires_at: after.expires_at, rotated_to: after.rotated_to })
          .where('id', '=', id)
          .where('rotated_to', 'is', null)
          .executeTakeFirst();
        if (updated.numUpdatedRows !== 1n) throw alreadyRotated(id, null);
        await trx
          .insertInto('merchant_grants')
          .columns(['key_id', 'merchant_id', 'created_at'])
          .expression((eb) =>
            eb
              .selectFrom('merchant_grants')
              .select([eb.val(created.id).as('key_id'), 'merchant_id', eb.val(nowIso()).as('created_at')])
              .where('key_id', '=', id),
          )
          .execute();
        await recordAudit(trx, ctx, {
          action: 'api_key.rotate',
          objectType: 'api_key',
          objectId: id,
          before: keyView(old),
          after: keyView(after),
        });
        return also(trx, { old: keyView(after), new: created }, then);
      }),

    grantMerchant: (keyId: string, merchantId: string, ctx: AuditContext) =>
      write(async (trx) => {
        await findKey(trx, keyId);
        await requireMerchantRow(trx, merchantId);
        await trx
          .insertInto('merchant_grants')
          .values({ key_id: keyId, merchant_id: merchantId, created_at: nowIso() })
          .onConflict((oc) => oc.doNothing())
          .execute();
        await recordAudit(trx, ctx, {
          action: 'api_key.grant',
          objectType: 'api_key',
          objectId: keyId,
          before: null,
          after: { merchantId },
        });
      }),

    revokeGrant: (keyId: string, merchantId: string, ctx: AuditContext) =>
      write(async (trx) => {
        const res = await trx
          .deleteFrom('merchant_grants')
          .where('key_id', '=', keyId)
          .where('merchant_id', '=', merchantId)
          .executeTakeFirst();
        if (res.numDeletedRows === 0n)
          throw new HostpayError('NOT_FOUND', `API key ${keyId} has no grant for merchant ${merchantId}`);
        await recordAudit(trx, ctx, {
          action: 'api_key.ungrant',
          objectType: 'api_key',
          objectId: keyId,
          before: { merchantId },
          after: null,
        });
      }),

    listGrants: async (keyId: string) =>
      (
        await db
          .selectFrom('merchant_grants')
          .select(['merchant_id', 'created_at'])
          .where('key_id', '=', keyId)
          .orderBy('created_at')
          .execute()
      ).map((g) => ({ merchantId: g.merchant_id, createdAt: g.created_at })),
  };
}

export type KeyAdmin = ReturnType<typeof keyAdmin>;
