import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Role } from '../../src/auth/principal.js';
import { totpCode } from '../../src/features/merchant-users/totp.js';
import type { Services } from '../../src/services.js';

/**
 * A signed-in merchant dashboard session for tests: a user created enrolled through the
 * merchant-users service (known password and TOTP secret), then signed in through the routes
 * (password, then the TOTP code of the app's clock). Each call makes a new user, so the codes of
 * two calls never collide with the replay rule (a code is good once per user).
 */
export interface DashboardSession {
  /** `hp_session=<id>`, for the Cookie header. */
  cookie: string;
  csrfToken: string;
  userId: string;
  email: string;
  password: string;
  totpSecret: string;
  merchantId: string;
  role: Role;
  /** Headers of a request made with the session: the cookie, and the CSRF token unless `csrf: false`. */
  headers(options?: { csrf?: boolean }): Record<string, string>;
}

export interface DashboardWorld {
  app: FastifyInstance;
  services: Services;
  now(): number;
}

export const TEST_PASSWORD = 'correct horse battery staple';
let counter = 0;

export const cookieOf = (res: LightMyRequestResponse): string => {
  const set = res.headers['set-cookie'];
  const line = Array.isArray(set) ? set[0] : set;
  if (line === undefined) throw new Error(`no Set-Cookie in the answer ${res.statusCode}: ${res.body}`);
  return line.split(';')[0]!;
};

/** Creates an enrolled user of `merchantId` with `role` (default owner). */
export async function createDashboardUser(
  world: DashboardWorld,
  merchantId: string,
  role: Role = 'owner',
  email = `user${++counter}-${Date.now()}@example.com`,
  password = TEST_PASSWORD,
): Promise<{ userId: string; email: string; password: string; totpSecret: string }> {
  const made = await world.services.merchantUsers.team.createEnrolled(merchantId, email, role, password);
  return { ...made, email, password };
}

/** Signs an existing user in through the routes; the code is the current step's (move the clock 30 s between two). */
export async function signInDashboard(
  world: DashboardWorld,
  user: { email: string; password: string; totpSecret: string },
  app: FastifyInstance = world.app,
): Promise<{ cookie: string; csrfToken: string }> {
  const first = await app.inject({
    method: 'POST',
    url: '/dashboard/api/sign-in',
    payload: { email: user.email, password: user.password },
  });
  if (first.statusCode !== 200) throw new Error(`sign-in: ${first.statusCode} ${first.body}`);
  const half = {
    cookie: cookieOf(first),
    csrf: (JSON.parse(first.body) as { result: { csrfToken: string } }).result.csrfToken,
  };
  const second = await app.inject({
    method: 'POST',
    url: '/dashboard/api/sign-in/totp',
    headers: { cookie: half.cookie, 'x-csrf-token': half.csrf },
    payload: { code: totpCode(user.totpSecret, world.now()) },
  });
  if (second.statusCode !== 200) throw new Error(`sign-in/totp: ${second.statusCode} ${second.body}`);
  return {
    cookie: cookieOf(second),
    csrfToken: (JSON.parse(second.body) as { result: { csrfToken: string } }).result.csrfToken,
  };
}

/** A new user of `merchantId` with `role`, signed in. */
export async function dashboardSession(
  world: DashboardWorld,
  merchantId: string,
  role: Role = 'owner',
): Promise<DashboardSession> {
  const user = await createDashboardUser(world, merchantId, role);
  const { cookie, csrfToken } = await signInDashboard(world, user);
  return {
    ...user,
    cookie,
    csrfToken,
    merchantId,
    role,
    headers: (options = {}) => ({ cookie, ...(options.csrf === false ? {} : { 'x-csrf-token': csrfToken }) }),
  };
}
