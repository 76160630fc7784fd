import type { Db } from '../../store/store.js';

/**
 * Who made each API key, read from the audit log: every key, a rotation's successor included, is
 * inserted with an `api_key.create` entry in the same transaction, naming the actor as the audit
 * log does (`dashboard:<email>` for a dashboard user, else the operator token's name, `cli:<user>`
 * or `demo`). So keys made before this view existed have their creator too, without a migration.
 *
 * A key keeps the scopes it was made with whatever happens to its maker later: a user demoted to
 * a role without those scopes, or removed from the team, leaves their keys working until someone
 * rolls or revokes them (docs/dashboard.md, "Keys and role changes"). This is what lets the team
 * find them.
 */
export type KeyCreator =
  | { kind: 'user'; email: string; userId: string | null; role: string | null }
  | { kind: 'operator'; name: string };

const DASHBOARD = 'dashboard:';

/** The ids of the keys `actor` (an audit operator value) created: a subquery for `where id in`. */
export const keysCreatedBy = (db: Db, actor: string) =>
  db
    .selectFrom('audit_log')
    .select('object_id')
    .where('object_type', '=', 'api_key')
    .where('action', '=', 'api_key.create')
    .where('operator', '=', actor);

/** The audit actor that stands for a dashboard user. */
export const dashboardActor = (email: string) => `${DASHBOARD}${email}`;

/**
 * The creator of each of `keyIds` (null where the log has none), with the team member's current
 * id and role for a dashboard user of `merchantId` (null once removed from the team).
 */
export async function keyCreators(
  db: Db,
  merchantId: string,
  keyIds: readonly string[],
): Promise<Map<string, KeyCreator | null>> {
  const out = new Map<string, KeyCreator | null>(keyIds.map((id) => [id, null]));
  if (keyIds.length === 0) return out;
  const entries = await db
    .selectFrom('audit_log')
    .select(['object_id', 'operator'])
    .where('object_type', '=', 'api_key')
    .where('action', '=', 'api_key.create')
    .where('object_id', 'in', [...keyIds])
    .execute();
  const emails = [
    ...new Set(entries.filter((e) => e.operator.startsWith(DASHBOARD)).map((e) => e.operator.slice(DASHBOARD.length))),
  ];
  const members =
    emails.length === 0
      ? []
      : await db
          .selectFrom('merchant_users')
          .select(['id', 'email', 'role'])
          .where('merchant_id', '=', merchantId)
          .where('email', 'in', emails)
          .execute();
  for (const e of entries) {
    if (!e.operator.startsWith(DASHBOARD)) {
      out.set(e.object_id, { kind: 'operator', name: e.operator });
      continue;
    }
    const email = e.operator.slice(DASHBOARD.length);
    const member = members.find((m) => m.email === email);
    out.set(e.object_id, { kind: 'user', email, userId: member?.id ?? null, role: member?.role ?? null });
  }
  return out;
}
