import type { OperatorSessions } from '../../auth/operator-auth.js';
import {
  behindHttps,
  cookieNameFor,
  csrfTokenFor,
  csrfTokenMatches,
  newSessionId,
  readCookie,
  sha256hex,
} from '../../auth/cookie-session.js';
import type { Db } from '../../store/store.js';

export { behindHttps, readCookie, sessionCookie, sessionCookies } from '../../auth/cookie-session.js';

/**
 * Console sessions: the operator token is exchanged once for a random session id, sent back only
 * as an HttpOnly cookie. The store keeps the id's SHA-256, never the id. The CSRF token is an
 * HMAC of the session id, so it needs no storage and dies with the session; the page reads it
 * from the sign-in answer (or GET /console/session) and sends it in `x-csrf-token` on writes,
 * which a cross-site form or fetch cannot do (it cannot read the cookie or our answers).
 */
export const SESSION_ABSOLUTE_MS = 12 * 3600 * 1000;
/** last_seen_at is written at most this often: a read per request, not a write. */
const TOUCH_EVERY_MS = 60 * 1000;

/** What a session remembers of the token that opened it: a changed or removed token ends it. */
export const tokenFingerprint = (token: string) => sha256hex(sha256hex(token)).slice(0, 16);

const CSRF_LABEL = 'hostpay-console-csrf';
export const csrfTokenOf = (sessionId: string): string => csrfTokenFor(CSRF_LABEL, sessionId);
export const csrfMatches = (sessionId: string, given: string | undefined): boolean =>
  csrfTokenMatches(CSRF_LABEL, sessionId, given);

export interface SessionView {
  operator: string;
  createdAt: string;
  /** When the session ends if no request comes before. */
  idleExpiresAt: string;
  expiresAt: string;
}

export interface ConsoleSessionsOptions {
  db: Db;
  now: () => number;
  idleMs: number;
  /** Operator name → token fingerprint of the configured tokens, now. */
  fingerprints: ReadonlyMap<string, string>;
}

export function consoleSessions({ db, now, idleMs, fingerprints }: ConsoleSessionsOptions) {
  const iso = (ms: number) => new Date(ms).toISOString();
  const view = (
    row: { operator: string; created_at: string; last_seen_at: string; expires_at: string },
    seenMs: number,
  ): SessionView => ({
    operator: row.operator,
    createdAt: row.created_at,
    idleExpiresAt: iso(Math.min(seenMs + idleMs, Date.parse(row.expires_at))),
    expiresAt: row.expires_at,
  });

  return {
    async create(operator: string): Promise<{ id: string; csrfToken: string; session: SessionView }> {
      const id = newSessionId();
      const at = now();
      const row = {
        id_hash: sha256hex(id),
        operator,
        token_fingerprint: fingerprints.get(operator) ?? '',
        created_at: iso(at),
        last_seen_at: iso(at),
        expires_at: iso(at + SESSION_ABSOLUTE_MS),
      };
      // Ended sessions are swept here, at sign-in: there is no timer for them.
      await db
        .deleteFrom('console_sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', iso(at)), eb('last_seen_at', '<', iso(at - idleMs))]))
        .execute();
      await db.insertInto('console_sessions').values(row).execute();
      return { id, csrfToken: csrfTokenOf(id), session: view(row, at) };
    },

    /** The live session with this id, touched; undefined when unknown, idle too long, past its end or its token changed. */
    async check(id: string): Promise<SessionView | undefined> {
      if (id.length === 0 || id.length > 128) return undefined;
      const hash = sha256hex(id);
      const row = await db.selectFrom('console_sessions').selectAll().where('id_hash', '=', hash).executeTakeFirst();
      if (row === undefined) return undefined;
      const at = now();
      const seen = Date.parse(row.last_seen_at);
      const tokenOk = fingerprints.get(row.operator) === row.token_fingerprint;
      if (!tokenOk || at - seen > idleMs || at >= Date.parse(row.expires_at)) {
        await db.deleteFrom('console_sessions').where('id_hash', '=', hash).execute();
        return undefined;
      }
      if (at - seen >= TOUCH_EVERY_MS)
        await db
          .updateTable('console_sessions')
          .set({ last_seen_at: iso(at) })
          .where('id_hash', '=', hash)
          .execute();
      return view(row, at - seen >= TOUCH_EVERY_MS ? at : seen);
    },

    async remove(id: string): Promise<void> {
      await db.deleteFrom('console_sessions').where('id_hash', '=', sha256hex(id)).execute();
    },
  };
}

export type ConsoleSessions = ReturnType<typeof consoleSessions>;

/** The session cookie's name: `__Host-` prefixed behind https. */
export const cookieName = (secure: boolean) => cookieNameFor('hostpay_console', secure);

/**
 * The console session id of a request. Behind https it is only read from the `__Host-` cookie: a
 * plain-named one can be planted by a sibling subdomain or over plain http, and reading it would
 * undo what the prefix guarantees.
 */
export const sessionIdOf = (cookieHeader: string | undefined, secure: boolean): string | undefined =>
  readCookie(cookieHeader, cookieName(secure));

/** The sessions as the operator hook sees them (auth/operator-auth.ts). */
export const asOperatorSessions = (sessions: ConsoleSessions, publicUrl: string): OperatorSessions => ({
  idOf: (req) => sessionIdOf(req.headers.cookie, behindHttps(req, publicUrl)),
  check: (id) => sessions.check(id),
  csrfMatches,
});
