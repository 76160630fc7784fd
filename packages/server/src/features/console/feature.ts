import { defineFeature } from '../../feature-kit/feature.js';
import { consoleFront } from './front.js';
import { consoleSessions, type ConsoleSessionsOptions } from './sessions.js';
import { consoleMigrations } from './tables.js';

/**
 * The operator console: the admin API's browser front. Its routes and sessions need the operator
 * tokens, so buildApp makes them with the admin scope (`operatorFront`), not as merchant routes.
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
  operatorFront: consoleFront,
});
