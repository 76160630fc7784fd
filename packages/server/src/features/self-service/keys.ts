import { DEFAULT_SCOPES, type Scope } from '@hostpay/protocol';
import type { PageRequest } from '../../admin/pagination.js';
import { HostpayError } from '../../errors.js';
import { nowIso } from '../../store/ids.js';
import type { Db } from '../../store/store.js';
import { dashboardActor, keyCreators } from '../keys/creator.js';
import type { KeyAdmin, KeyView } from '../keys/service.js';
import { recordSecurity, type SecurityAction } from '../merchant-users/security-log.js';
import { auditOf, type DashboardUser } from './user.js';

/**
 * A merchant's own API keys, managed from the dashboard (owner, admin, developer): list, create,
 * roll, revoke — over the operators' key service (features/keys), so a key is made, sealed,
 * cached and audited by one code path whoever asks.
 *
 * The one rule added here: a user hands out no more than they hold. The scopes of a new key must
 * be among the user's own (their role's: a developer holds neither payouts:write nor any other
 * write beyond checkout:write and webhooks:write), and a user rolls or revokes only keys whose
 * scopes are all among theirs — rolling returns the new secret, so it is the same as creating.
 * Asking for more is 403 SCOPE_MISSING. Another merchant's key is 404, as a missing one.
 *
 * Each change lands twice: in the audit log (by the key service, as `dashboard:<email>`, with the
 * key before and after) and in the team's security log (key.created, key.rolled, key.revoked), the
 * latter written in the key's own transaction, so neither lands without the other. Revoking a key
 * already revoked changes nothing and records nothing.
 */
export interface KeyUser extends DashboardUser {
  /** The user's scopes (their role's). */
  scopes: readonly Scope[];
}

export interface CreateKeyRequest {
  scopes?: string[] | undefined;
  label?: string | null | undefined;
}

function beyond(user: KeyUser, scopes: readonly string[], what: string): void {
  const extra = scopes.filter((s) => !(user.scopes as readonly string[]).includes(s));
  if (extra.length > 0)
    throw new HostpayError(
      'SCOPE_MISSING',
      `your role does not hold ${extra.join(', ')}: you cannot ${what} a key with ${extra.length === 1 ? 'that scope' : 'those scopes'}; ask an owner or admin`,
      { scopes: extra },
    );
}

export function merchantKeys(keys: KeyAdmin, db: Db) {
  const log = (trx: Db, user: KeyUser, action: SecurityAction, details: Record<string, unknown>) =>
    recordSecurity(trx, nowIso(), {
      merchantId: user.merchantId,
      userId: user.userId,
      userEmail: user.email,
      action,
      ip: user.ip,
      details,
    });

  async function owned(user: KeyUser, id: string): Promise<KeyView> {
    let key: KeyView;
    try {
      key = await keys.getApiKey(id);
    } catch (e) {
      if (e instanceof HostpayError && e.code === 'NOT_FOUND') throw notFound(id);
      throw e;
    }
    if (key.merchantId !== user.merchantId) throw notFound(id);
    return key;
  }
  const notFound = (id: string) => new HostpayError('NOT_FOUND', `API key ${id} does not exist`);

  /** A team member's email from their id, or the email given (lower-cased: a removed member's keys stay findable). */
  async function memberEmail(user: KeyUser, who: string): Promise<string> {
    if (who.includes('@')) return who.trim().toLowerCase();
    const member = await db
      .selectFrom('merchant_users')
      .select('email')
      .where('merchant_id', '=', user.merchantId)
      .where('id', '=', who)
      .executeTakeFirst();
    if (member === undefined)
      throw new HostpayError(
        'INVALID_QUERY',
        `createdBy: ${who} is not a member of your team; give a user id or an email`,
        {
          parameter: 'createdBy',
        },
      );
    return member.email;
  }

  return {
    /**
     * The merchant's keys (revoked ones too), oldest first, without secrets, each with who made it
     * (`createdBy`, creator.ts: a key keeps its scopes when its maker is later demoted). `createdBy`
     * filters by a team member (user id or email).
     */
    async list(
      user: KeyUser,
      req: PageRequest & { status?: 'active' | 'revoked' | undefined; createdBy?: string | undefined },
    ) {
      const { createdBy, ...rest } = req;
      const actor = createdBy === undefined ? undefined : dashboardActor(await memberEmail(user, createdBy));
      const result = await keys.listApiKeys({
        ...rest,
        merchantId: user.merchantId,
        ...(actor === undefined ? {} : { createdBy: actor }),
      });
      const creators = await keyCreators(
        db,
        user.merchantId,
        result.items.map((k) => k.id),
      );
      return { ...result, items: result.items.map((k) => ({ ...k, createdBy: creators.get(k.id) ?? null })) };
    },

    /** A new key; its secret is in this answer only. Without scopes: the default (all but payouts:write). */
    async create(user: KeyUser, req: CreateKeyRequest) {
      const scopes = req.scopes ?? [...DEFAULT_SCOPES];
      beyond(user, scopes, 'create');
      return keys.createApiKey(
        user.merchantId,
        { scopes, ...(req.label === undefined ? {} : { label: req.label }) },
        auditOf(user),
        (trx, created) =>
          log(trx, user, 'key.created', { keyId: created.id, scopes: created.scopes, label: created.label }),
      );
    },

    /** A new key with the same settings and a new secret (shown once); the old one works until `overlapUntil` (default 24 h). */
    async roll(user: KeyUser, id: string, overlapUntil?: string) {
      const key = await owned(user, id);
      beyond(user, key.scopes, 'roll');
      return keys.rotateApiKey(id, overlapUntil, auditOf(user), (trx, rolled) =>
        log(trx, user, 'key.rolled', { keyId: id, newKeyId: rolled.new.id, oldExpiresAt: rolled.old.expiresAt }),
      );
    },

    /** Refused from the next request on, with every token it obtained. */
    async revoke(user: KeyUser, id: string) {
      const key = await owned(user, id);
      beyond(user, key.scopes, 'revoke');
      return keys.revokeApiKey(id, auditOf(user), (trx) => log(trx, user, 'key.revoked', { keyId: id }));
    },
  };
}

export type MerchantKeys = ReturnType<typeof merchantKeys>;
