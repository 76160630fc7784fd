import { defineFeature } from '../../feature-kit/feature.js';
import { consoleSessions, type ConsoleSessionsOptions } from './sessions.js';
import { consoleMigrations } from './tables.js';

/**
 * The operator console's sessions. Its routes are the admin API's browser front and need the
 * operator tokens, so buildApp registers them with the admin scope (app.ts), not from here.
 */
export const consoleFeature = defineFeature({
  name: 'console',
  migrations: consoleMigrations,
  needs: ['store'],
  provides: [],
  admin: ({ store }) => ({
    /** Console sessions, opened by the app with its operator tokens. */
    consoleSessions: (opts: Omit<ConsoleSessionsOptions, 'db'>) => consoleSessions({ db: store.db, ...opts }),
  }),
});
