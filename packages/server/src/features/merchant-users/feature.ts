import { defineFeature } from '../../feature-kit/feature.js';
import type { Store } from '../../store/store.js';
import { merchantUserAdminRoutes, type MerchantUserAdmin } from './admin-routes.js';
import { sessionPort } from './http.js';
import { dashboardAccountRoutes } from './routes.js';
import { dashboardSessions, type DashboardSessions } from './sessions.js';
import { team, type Team } from './team.js';
import { dashboardTeamRoutes } from './team-routes.js';
import { accounts, type Accounts } from './users.js';
import { merchantUsersMigrations } from './tables.js';

/** What the feature provides: the app opens the sessions with its idle setting (buildApp). */
export interface MerchantUsers {
  store: Store;
  accounts: Accounts;
  team: Team;
  /**
   * The same over the app's clock, with its sessions' idle time (HOSTPAY_DASHBOARD_IDLE_MINUTES):
   * buildApp's routes and hook use these (tests move the app's clock). Stateless: one per app.
   */
  forApp(idleMs: number, now: () => number): { accounts: Accounts; team: Team; sessions: DashboardSessions };
}

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** Merchant dashboard users, their sessions and the team (features/merchant-users). */
    merchantUsers: MerchantUsers;
  }
}

/** Merchant users: the dashboard's accounts, two-factor sign-in, sessions, team and security log. */
export const merchantUsersFeature = defineFeature({
  name: 'merchant-users',
  migrations: merchantUsersMigrations,
  needs: ['store', 'box', 'now', 'publicBaseUrl'],
  provides: ['merchantUsers'],
  create({ store, box, now, publicBaseUrl }) {
    const clock = now ?? Date.now;
    return {
      merchantUsers: {
        store,
        accounts: accounts({ store, box, now: clock }),
        team: team({ store, box, now: clock, publicBaseUrl }),
        forApp: (idleMs, appNow) => ({
          accounts: accounts({ store, box, now: appNow }),
          team: team({ store, box, now: appNow, publicBaseUrl }),
          sessions: dashboardSessions({ db: store.db, now: appNow, idleMs }),
        }),
      },
    };
  },
  admin: ({ merchantUsers }): MerchantUserAdmin => ({
    inviteMerchantUser: (merchantId, email, role, audit) =>
      merchantUsers.team.invite(merchantId, email, role, { operator: audit.operator }, { ip: null }, audit),
    merchantUserResetLink: (merchantId, email, audit) =>
      merchantUsers.team.resetLink(merchantId, { email }, { operator: audit.operator }, { ip: null }, audit),
  }),
  merchantRoutes: [dashboardAccountRoutes, dashboardTeamRoutes],
  adminRoutes: [merchantUserAdminRoutes],
  merchantSessions: ({ merchantUsers }, { config, now }) =>
    sessionPort(merchantUsers.forApp(config.dashboardIdleMinutes * 60_000, now).sessions, config.publicUrl),
});
