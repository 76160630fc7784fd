import type BetterSqlite3 from 'better-sqlite3';
import type { SyncConnection } from '../src/store/steps.js';

/**
 * A better-sqlite3 database as the group commit's synchronous connection, as store/sqlite.ts makes
 * it (without its statement cache). `before` runs ahead of each statement: a test's fault.
 */
export function sqliteConnection(
  raw: BetterSqlite3.Database,
  before?: (text: string, parameters: readonly unknown[]) => void,
): SyncConnection {
  return {
    exec(text, parameters) {
      before?.(text, parameters);
      const statement = raw.prepare(text);
      if (statement.reader) return { rows: statement.all(parameters as unknown[]), changes: undefined };
      return { rows: [], changes: statement.run(parameters as unknown[]).changes };
    },
    inTransaction: () => raw.inTransaction,
  };
}
