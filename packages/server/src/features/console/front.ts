import { tokenMatcher } from '../../auth/operator-auth.js';
import type { OperatorFront, OperatorFrontContext } from '../../feature-kit/operator-front.js';
import { consoleDisabledRoutes, consoleRoutes } from './routes.js';
import { asOperatorSessions, type ConsoleSessions, type ConsoleSessionsOptions, tokenFingerprint } from './sessions.js';
import { type ConsoleFiles, loadConsoleFiles } from './static.js';

declare module '../../feature-kit/operator-front.js' {
  interface AppOptions {
    /** The console's built files; default: read from the package's dist/console. */
    consoleFiles?: ConsoleFiles | undefined;
  }
}

/**
 * The console as the admin API's browser front: its session cookie, with the CSRF token on
 * writes, stands in for the bearer token. Off (its paths answer how to turn it on) without the
 * admin API or without HOSTPAY_CONSOLE.
 */
export function consoleFront(
  admin: { consoleSessions: (opts: Omit<ConsoleSessionsOptions, 'db'>) => ConsoleSessions } | undefined,
  { config, now, operatorTokens, allowList, limiter, options }: OperatorFrontContext,
): OperatorFront {
  if (admin === undefined || !config.console) return { routes: consoleDisabledRoutes };
  const sessions = admin.consoleSessions({
    now,
    idleMs: config.consoleIdleMinutes * 60_000,
    fingerprints: new Map([...operatorTokens].map(([name, token]) => [name, tokenFingerprint(token)])),
  });
  const files = 'consoleFiles' in options ? options.consoleFiles : loadConsoleFiles();
  return {
    sessions: asOperatorSessions(sessions, config.publicUrl),
    routes: (app) =>
      consoleRoutes(app, { config, sessions, operatorOf: tokenMatcher(operatorTokens), allowList, limiter, files }),
  };
}
