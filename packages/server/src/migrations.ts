import { REGISTERED_FEATURES } from './features/index.js';
import { SQLITE_SCHEMA } from './sqlite-schema.js';
import {
  KERNEL_MIGRATIONS,
  latestVersion,
  mergeMigrations,
  migrate as runMigrations,
  type Migration,
} from './store/migrate.js';

export { schemaVersion } from './store/migrate.js';

/**
 * Every migration this build knows: the kernel's and each registered feature's (declared in its
 * tables.ts), as one list in version order. Built when the module loads, so a duplicate or a
 * missing version stops the server before it opens anything.
 */
export const MIGRATIONS: readonly Migration[] = mergeMigrations([
  { owner: 'the kernel', migrations: KERNEL_MIGRATIONS },
  ...REGISTERED_FEATURES.map((f) => ({ owner: `feature "${f.name}"`, migrations: f.migrations ?? [] })),
]);

/** The schema version this code needs: the last migration's. */
export const LATEST_VERSION = latestVersion(MIGRATIONS);

/**
 * Applies this build's pending migrations; `upTo` stops after that version (tests). An empty
 * SQLite store takes them as one script (sqlite-schema.ts) while it stands for this list's start.
 */
export const migrate = (store: Parameters<typeof runMigrations>[0], opts: { upTo?: number } = {}) =>
  runMigrations(store, MIGRATIONS, { ...opts, fresh: SQLITE_SCHEMA });
