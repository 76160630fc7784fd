import type { OperatorSessions } from '../auth/operator-auth.js';
import type { RateLimiter } from '../auth/rate-limit.js';
import type { Config } from '../config.js';
import type { TypedApp } from '../http/route-context.js';

/**
 * buildApp's options meant for one feature (the console's built files in tests), added by that
 * feature (`declare module`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: features merge their options into it.
export interface AppOptions {}

/** What a feature's operator front gets from buildApp: the settings of the operator check. */
export interface OperatorFrontContext {
  config: Config;
  now: () => number;
  /** Operator tokens by name; empty when the admin API is off. */
  operatorTokens: ReadonlyMap<string, string>;
  /** HOSTPAY_ADMIN_IP_ALLOW_LIST parsed; null: any address. */
  allowList: readonly string[] | null;
  limiter: RateLimiter;
  options: AppOptions;
}

/**
 * A browser front for the admin API (the console): cookie sessions the admin API takes in place of
 * the bearer token, and its own routes, registered after the admin API's.
 */
export interface OperatorFront {
  /** undefined: the front is off (no sessions stand in for the token). */
  sessions?: OperatorSessions | undefined;
  routes(app: TypedApp): Promise<void>;
}
