import type { AuditContext } from '../audit/service.js';

/** The signed-in dashboard user a self-service change is made by (from the session principal). */
export interface DashboardUser {
  merchantId: string;
  userId: string;
  email: string;
  /** The request's client address, for the security log; null when unknown. */
  ip: string | null;
  requestId?: string | undefined;
}

/** How the audit log names a dashboard user: the operators' log says who, beside the operators. */
export const auditOf = (user: DashboardUser): AuditContext => ({
  operator: `dashboard:${user.email}`,
  ...(user.requestId === undefined ? {} : { requestId: user.requestId }),
});
