import type { Services } from '../services.js';

export const DEMO_DASHBOARD_EMAIL = 'owner@demo.example';

/** What the demo banner says about the merchant dashboard. */
export interface DemoDashboard {
  url: string;
  email: string;
  /** An invitation to set the owner's password and two-factor code; absent once the owner exists. */
  invitationLink?: string | undefined;
}

/**
 * The demo merchant's dashboard owner. Invited, not created with a password: the person trying
 * the demo walks the same sign-up a real merchant does (password, then a TOTP code). The link is
 * shown only in the banner and its token is stored hashed, so each start until it is accepted
 * revokes the last one and issues a fresh link; once the owner exists the banner names the email.
 */
export async function demoDashboard(services: Services, merchantId: string, baseUrl: string): Promise<DemoDashboard> {
  const db = services.store.db;
  const url = `${baseUrl}/dashboard`;
  const email = DEMO_DASHBOARD_EMAIL;
  const member = await db
    .selectFrom('merchant_users')
    .select('id')
    .where('merchant_id', '=', merchantId)
    .where('email', '=', email)
    .executeTakeFirst();
  if (member !== undefined) return { url, email };
  const team = services.merchantUsers.team;
  const issuer = { operator: 'demo' };
  const actor = { ip: null };
  const pending = await db
    .selectFrom('merchant_user_links')
    .select('id')
    .where('merchant_id', '=', merchantId)
    .where('kind', '=', 'invitation')
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
  for (const link of pending) await team.revokeInvitation(merchantId, link.id, issuer, actor);
  const invited = await team.invite(merchantId, email, 'owner', issuer, actor);
  return { url, email, invitationLink: invited.link };
}
