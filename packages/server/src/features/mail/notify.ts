import type { QueryResult } from 'kysely';
import type { Steps } from '../../store/steps.js';
import type { Db } from '../../store/store.js';
import type { OutboxEvent, OutboxSubscriber } from '../events/outbox.js';
import { enqueueMail, enqueueSteps } from './enqueue.js';
import { NOTIFICATION_DEFAULTS, NOTIFICATION_EVENTS, type NotificationName, preferencesOf } from './preferences.js';
import { SECURITY_NOTICE_ACTIONS } from './templates.js';

/** Which notification an event is, or null (payout.completed of a refund is `refundCompleted`). */
function* notificationOf(db: Db, event: OutboxEvent): Steps<NotificationName | null> {
  if (event.type === 'payout.completed') {
    const found: QueryResult<{ data: string }> = yield db
      .selectFrom('events')
      .select('data')
      .where('id', '=', event.id);
    const row = found.rows[0];
    const object =
      row === undefined ? {} : ((JSON.parse(row.data) as { object?: { refundOf?: unknown } }).object ?? {});
    return object.refundOf == null ? 'payoutCompleted' : 'refundCompleted';
  }
  for (const [name, type] of Object.entries(NOTIFICATION_EVENTS))
    if (type === event.type && name !== 'refundCompleted') return name as NotificationName;
  return null;
}

/**
 * The merchant notifications an event owes, one mail per user of its merchant whose preference
 * is on, written in the event's transaction (the mail feature's outbox contribution). The mail
 * is rendered from the event when it is sent. Returns 0: the webhook workers have nothing to wake for.
 */
function* each(db: Db, event: OutboxEvent, at: string): Steps<number> {
  const name = yield* notificationOf(db, event);
  if (name === null) return 0;
  const users: QueryResult<{ id: string; email: string; settings: string | null }> = yield db
    .selectFrom('merchant_users as u')
    .leftJoin('mail_preferences as p', 'p.user_id', 'u.id')
    .select(['u.id', 'u.email', 'p.settings'])
    .where('u.merchant_id', '=', event.merchantId);
  for (const u of users.rows) {
    if (!preferencesOf(u.settings)[name]) continue;
    yield* enqueueSteps(
      db,
      {
        merchantId: event.merchantId,
        kind: 'notification',
        to: u.email,
        toRole: 'user',
        userId: u.id,
        data: { eventId: event.id, type: event.type, preference: name },
      },
      at,
    );
  }
  return 0;
}

/**
 * `each` for the events of a batched PostgreSQL statement: the CTE `events` carries no data, so
 * payout.completed (which needs its object to tell a refund) is left to `each`; batched
 * statements write only checkout.created today, which notifies nobody.
 */
function batch(events: string): string {
  const cases = Object.entries(NOTIFICATION_EVENTS)
    .filter(([, type]) => type !== 'payout.completed')
    .map(([name, type]) => `when '${type}' then '${name}'`)
    .join(' ');
  const defaults = Object.entries(NOTIFICATION_DEFAULTS)
    .map(([name, on]) => `'${name}', ${on}`)
    .join(', ');
  return `insert into mail_outbox (id, merchant_id, kind, to_address, to_role, user_id, data, data_sealed, subject,
      status, attempts, next_attempt_at, lease_owner, lease_expires_at, last_error, created_at, updated_at, sent_at, body_deleted_at)
    select 'mail_' || substr(e.id, 5, 12) || substr(md5(e.id || '/' || u.id), 1, 12), e.merchant_id, 'notification', u.email,
      'user', u.id, json_build_object('eventId', e.id, 'type', e.type, 'preference', n.name)::text, null, null,
      'pending', 0, e.created_at, null, null, null, e.created_at, e.created_at, null, null
    from ${events} e
    join lateral (select case e.type ${cases} end as name) n on n.name is not null
    join merchant_users u on u.merchant_id = e.merchant_id
    left join mail_preferences p on p.user_id = u.id
    where coalesce((p.settings::jsonb ->> n.name)::boolean, (jsonb_build_object(${defaults}) ->> n.name)::boolean)
    returning 1`;
}

/** The mail feature's share of every appended event. */
export const notificationsOwed: OutboxSubscriber = { each, batch };

/** Who is told of a security action: the user it is about; for API keys, every owner and admin too. */
export async function securityNotice(
  trx: Db,
  at: string,
  entry: {
    merchantId: string;
    userId: string | null;
    userEmail: string | null;
    action: string;
    ip: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  if (!SECURITY_NOTICE_ACTIONS.includes(entry.action)) return;
  const to = new Map<string, string>();
  if (entry.userId !== null) {
    const self = await trx
      .selectFrom('merchant_users')
      .select(['id', 'email'])
      .where('id', '=', entry.userId)
      .executeTakeFirst();
    if (self !== undefined) to.set(self.id, self.email);
  }
  if (entry.action.startsWith('key.')) {
    const admins = await trx
      .selectFrom('merchant_users')
      .select(['id', 'email'])
      .where('merchant_id', '=', entry.merchantId)
      .where('role', 'in', ['owner', 'admin'])
      .execute();
    for (const a of admins) to.set(a.id, a.email);
  }
  const keyId = entry.details?.keyId ?? entry.details?.id;
  for (const [userId, email] of to)
    await enqueueMail(
      trx,
      {
        merchantId: entry.merchantId,
        kind: 'security',
        to: email,
        toRole: 'user',
        userId,
        data: {
          action: entry.action,
          at,
          by: entry.userEmail,
          ip: entry.ip,
          ...(typeof keyId === 'string' ? { keyId } : {}),
        },
      },
      at,
    );
}
