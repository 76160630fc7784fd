import type { Store } from '../../store/store.js';
import { type NotificationPreferences, readPreferences, writePreferences } from './preferences.js';

/** A hard bounce as the merchant sees it (GET /dashboard/api/mail-bounces). */
export interface BounceView {
  address: string;
  at: string;
  reason: string;
  mailId: string;
}

/** The dashboard's side of mail: a user's notification switches and the merchant's bounced addresses. */
export function mailPreferences(store: Store, now: () => number) {
  return {
    get: (userId: string): Promise<NotificationPreferences> => readPreferences(store.db, userId),
    update: (user: { userId: string; merchantId: string }, patch: Partial<NotificationPreferences>) =>
      store.writeTransaction((trx) => writePreferences(trx, user, patch, new Date(now()).toISOString())),
    /** The addresses of this merchant's mails that bounced hard, newest first (at most 200). */
    async bounces(merchantId: string): Promise<BounceView[]> {
      const rows = await store.db
        .selectFrom('mail_bounces')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .orderBy('at', 'desc')
        .limit(200)
        .execute();
      return rows.map((r) => ({ address: r.address, at: r.at, reason: r.reason, mailId: r.mail_id }));
    },
  };
}
