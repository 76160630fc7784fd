import type { Command } from 'commander';
import type { Config, Store } from '@hostpay/server';
import { configFrom, loadServer } from '../context.js';
import { printResult, type Io } from '../output.js';
import { withStoreOptions, type StoreOptions } from '../options.js';

export function registerMigrate(program: Command, io: Io): void {
  withStoreOptions(
    program
      .command('migrate')
      .description(
        'apply pending schema migrations to the configured store (SQLite, or HOSTPAY_DATABASE_URL=postgres://…)',
      ),
  )
    .addHelpText(
      'after',
      '\nSafe to run again (nothing left to apply: a no-op) and from several machines at once (migrations\nare serialised by a lock). Needs no master key. `serve` also migrates on start; run this first to\nupgrade the schema as its own deployment step.',
    )
    .action(async (opts: StoreOptions) => {
      const config = await configFrom(io, { dataDir: opts.dataDir });
      const server = await loadServer();
      const store = await openStore(config);
      try {
        const { applied } = await server.migrate(store);
        const version = await server.schemaVersion(store);
        const out = { store: describeStore(config), applied, schemaVersion: version };
        printResult(io, opts.json, out, () =>
          applied.length === 0
            ? `schema is up to date at version ${version} (${out.store}): nothing to apply`
            : `applied migration${applied.length === 1 ? '' : 's'} ${applied.join(', ')} to ${out.store}: schema version ${version}`,
        );
      } finally {
        await store.close();
      }
    });
}

const isPostgres = (config: Config) => /^postgres(ql)?:\/\//.test(config.databaseUrl);

/** Where the store is, without a password. */
function describeStore(config: Config): string {
  return isPostgres(config)
    ? config.databaseUrl.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@')
    : `SQLite ${config.databaseUrl.replace(/^sqlite:/, '') || `${config.dataDir}/hostpay.db`}`;
}

/**
 * The store alone (no master key, no services). PostgreSQL needs the server's `openStore`, which
 * newer server builds export; the embedded SQLite store is opened directly.
 */
async function openStore(config: Config): Promise<Store> {
  const server = await loadServer();
  if (!isPostgres(config)) return server.openSqliteStore(server.sqliteFile(config));
  const open = (server as { openStore?: (c: Config) => Promise<Store> }).openStore;
  if (open === undefined)
    throw new Error(
      'this server build cannot open PostgreSQL on its own: start hostpay serve once (it migrates on start)',
    );
  return open(config);
}
