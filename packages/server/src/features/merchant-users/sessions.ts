import type { Scope } from '@hostpay/protocol';
import { csrfTokenFor, csrfTokenMatches, newSessionId, sha256hex } from '../../auth/cookie-session.js';
import { sessionRequired } from '../../auth/refusals.js';
import type { Role, SessionPrincipal } from '../../auth/principal.js';
import { HostpayError } from '../../errors.js';
import type { Db } from '../../store/store.js';
import { ROLE_SCOPES } from './roles.js';

/**
 * Dashboard sessions in the store: the id's SHA-256 is kept, never the id. A session starts half
 * signed in (stage `totp` after the password, `enrol` after an invitation is accepted) and lives
 * ten minutes so; each step replaces it with a new id (no fixation). A full session ends after the
 * idle time without a request, 12 hours after sign-in, at sign-out, or when the user signs out
 * everywhere, changes or resets the password, or is removed.
 */
export const SESSION_ABSOLUTE_MS = 12 * 3600 * 1000;
export const HALF_SESSION_MS = 10 * 60 * 1000;
/** last_seen_at is written at most this often: a read per request, not a write. */
const TOUCH_EVERY_MS = 60 * 1000;
const CSRF_LABEL = 'hostpay-dashboard-csrf';

export type Stage = 'totp' | 'enrol' | 'full';

export const csrfTokenOf = (sessionId: string): string => csrfTokenFor(CSRF_LABEL, sessionId);
export const csrfMatches = (sessionId: string, given: string | undefined): boolean =>
  csrfTokenMatches(CSRF_LABEL, sessionId, given);

export interface LiveSession {
  idHash: string;
  stage: Stage;
  userId: string;
  email: string;
  role: Role;
  merchantId: string;
  merchantName: string;
  merchantStatus: 'active' | 'suspended';
  scopes: readonly Scope[];
  /** The earlier of the idle and the absolute end. */
  expiresAt: string;
}

export interface DashboardSessionsOptions {
  db: Db;
  now: () => number;
  idleMs: number;
}

export function dashboardSessions({ db, now, idleMs }: DashboardSessionsOptions) {
  const iso = (ms: number) => new Date(ms).toISOString();

  async function findByHash(hash: string): Promise<LiveSession | undefined> {
    const row = await db
      .selectFrom('merchant_sessions as s')
      .innerJoin('merchant_users as u', 'u.id', 's.user_id')
      .innerJoin('merchants as m', 'm.id', 'u.merchant_id')
      .select([
        's.stage',
        's.last_seen_at',
        's.expires_at',
        'u.id as user_id',
        'u.email',
        'u.role',
        'm.id as merchant_id',
        'm.name as merchant_name',
        'm.status as merchant_status',
      ])
      .where('s.id_hash', '=', hash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const at = now();
    const seen = Date.parse(row.last_seen_at);
    const end = Date.parse(row.expires_at);
    const idle = row.stage === 'full' ? idleMs : HALF_SESSION_MS;
    if (at - seen > idle || at >= end) {
      await db.deleteFrom('merchant_sessions').where('id_hash', '=', hash).execute();
      return undefined;
    }
    const touched = at - seen >= TOUCH_EVERY_MS;
    if (touched)
      await db
        .updateTable('merchant_sessions')
        .set({ last_seen_at: iso(at) })
        .where('id_hash', '=', hash)
        .execute();
    return {
      idHash: hash,
      stage: row.stage,
      userId: row.user_id,
      email: row.email,
      role: row.role,
      merchantId: row.merchant_id,
      merchantName: row.merchant_name,
      merchantStatus: row.merchant_status,
      scopes: ROLE_SCOPES[row.role],
      expiresAt: iso(Math.min((touched ? at : seen) + idle, end)),
    };
  }

  const find = (id: string): Promise<LiveSession | undefined> =>
    id.length === 0 || id.length > 128 ? Promise.resolve(undefined) : findByHash(sha256hex(id));

  /** The principal of a full session, for the merchant and dashboard hooks. */
  function principalOf(session: LiveSession | undefined): SessionPrincipal {
    if (session === undefined || session.stage !== 'full') throw sessionRequired();
    if (session.merchantStatus === 'suspended')
      throw new HostpayError('MERCHANT_SUSPENDED', 'your merchant account is suspended: contact your operator');
    return {
      via: 'session',
      merchantId: session.merchantId,
      userId: session.userId,
      email: session.email,
      role: session.role,
      scopes: session.scopes,
      sessionHash: session.idHash,
    };
  }

  return {
    find,
    /**
     * A new session of `stage` for the user; `replacing` (the id of the step before) is ended in
     * the same breath, so each sign-in step hands out a new id.
     */
    async create(userId: string, stage: Stage, replacing?: string): Promise<{ id: string; csrfToken: string }> {
      const id = newSessionId();
      const at = now();
      // Ended sessions are swept here, at sign-in: there is no timer for them.
      await db
        .deleteFrom('merchant_sessions')
        .where((eb) =>
          eb.or([
            eb('expires_at', '<=', iso(at)),
            eb('last_seen_at', '<', iso(at - Math.max(idleMs, HALF_SESSION_MS))),
            ...(replacing === undefined ? [] : [eb('id_hash', '=', sha256hex(replacing))]),
          ]),
        )
        .execute();
      await db
        .insertInto('merchant_sessions')
        .values({
          id_hash: sha256hex(id),
          user_id: userId,
          stage,
          created_at: iso(at),
          last_seen_at: iso(at),
          expires_at: iso(at + (stage === 'full' ? SESSION_ABSOLUTE_MS : HALF_SESSION_MS)),
        })
        .execute();
      return { id, csrfToken: csrfTokenOf(id) };
    },
    async remove(id: string): Promise<void> {
      await db.deleteFrom('merchant_sessions').where('id_hash', '=', sha256hex(id)).execute();
    },
    /** Ends every session of the user but `keepHash` (when given). */
    async removeAllOf(userId: string, keepHash?: string): Promise<number> {
      let q = db.deleteFrom('merchant_sessions').where('user_id', '=', userId);
      if (keepHash !== undefined) q = q.where('id_hash', '!=', keepHash);
      const res = await q.executeTakeFirst();
      return Number(res.numDeletedRows);
    },
    principal: async (id: string) => principalOf(await find(id)),
    principalByHash: async (hash: string) => principalOf(await findByHash(hash)),
    csrfMatches,
  };
}

export type DashboardSessions = ReturnType<typeof dashboardSessions>;
