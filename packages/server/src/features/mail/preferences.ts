import type { Db } from '../../store/store.js';

/** Each dashboard user's merchant notifications (spec: commerce.md, "Email"): name → on by default. */
export const NOTIFICATION_DEFAULTS = {
  checkoutSettled: false,
  checkoutNeedsReview: true,
  payoutCompleted: false,
  payoutFailed: true,
  refundCompleted: true,
  webhookEndpointDisabled: true,
} as const;
export type NotificationName = keyof typeof NOTIFICATION_DEFAULTS;
export type NotificationPreferences = Record<NotificationName, boolean>;
export const NOTIFICATION_NAMES = Object.keys(NOTIFICATION_DEFAULTS) as NotificationName[];

/** The event type each notification follows (payout.completed is a refund's when its payout has `refundOf`). */
export const NOTIFICATION_EVENTS: Record<NotificationName, string> = {
  checkoutSettled: 'checkout.settled',
  checkoutNeedsReview: 'checkout.needs_review',
  payoutCompleted: 'payout.completed',
  payoutFailed: 'payout.failed',
  refundCompleted: 'payout.completed',
  webhookEndpointDisabled: 'webhook_endpoint.disabled',
};

/** A stored settings text read over the defaults (names no longer known are dropped). */
export function preferencesOf(settings: string | null | undefined): NotificationPreferences {
  const stored = settings == null ? {} : (JSON.parse(settings) as Record<string, unknown>);
  const out = { ...NOTIFICATION_DEFAULTS } as NotificationPreferences;
  for (const name of NOTIFICATION_NAMES) if (typeof stored[name] === 'boolean') out[name] = stored[name] as boolean;
  return out;
}

export async function readPreferences(db: Db, userId: string): Promise<NotificationPreferences> {
  const row = await db
    .selectFrom('mail_preferences')
    .select('settings')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return preferencesOf(row?.settings);
}

/** Sets the switches given; returns the whole set. */
export async function writePreferences(
  db: Db,
  user: { userId: string; merchantId: string },
  patch: Partial<NotificationPreferences>,
  at: string,
): Promise<NotificationPreferences> {
  const next = { ...(await readPreferences(db, user.userId)), ...patch };
  const settings = JSON.stringify(next);
  await db
    .insertInto('mail_preferences')
    .values({ user_id: user.userId, merchant_id: user.merchantId, settings, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ settings, updated_at: at }))
    .execute();
  return next;
}
