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
  const url = `${baseUrl}/dashboard`;
  const email = DEMO_DASHBOARD_EMAIL;
  const team = services.merchantUsers.team;
  const member = (await team.list(merchantId)).users.find((u) => u.email === email);
  if (member !== undefined) return { url, email };
  const invited = await team.renewInvitation(merchantId, email, 'owner', { operator: 'demo' }, { ip: null });
  return { url, email, invitationLink: invited.link };
}
