import { userInfo } from 'node:os';
import type { Config, Services } from '@hostpay/server';
import { notice, type Io } from './output.js';

/**
 * The server package (store, SQLite driver, Fastify) takes most of a command's start-up time, so
 * it is imported only by commands that use it; `curl`, `token` and `--help` never load it.
 */
export const loadServer = () => import('@hostpay/server');

/** Where the services report events such as Redis lost and back (default: process warnings). */
export interface ServiceLog {
  warn(message: string): void;
  info(message: string): void;
}

export type ConfigOverrides = { [K in keyof Config]?: Config[K] | undefined };

/** Config from the environment, with the flags that were given on top. */
export async function configFrom(io: Io, overrides: ConfigOverrides): Promise<Config> {
  const given: Partial<Config> = {};
  for (const [k, v] of Object.entries(overrides)) if (v !== undefined) Object.assign(given, { [k]: v });
  return (await loadServer()).loadConfig(io.env, given);
}

/** Losing a generated master key makes every API secret in the store useless: say so loudly. */
export function warnIfGeneratedMasterKey(io: Io, config: Config, services: Pick<Services, 'masterKey'>): void {
  if (services.masterKey.origin === 'generated') {
    notice(
      io,
      `warning: generated a new master key in ${services.masterKey.file ?? config.dataDir}; it encrypts the API secrets stored in ${config.dataDir}: keep it with the data (production: set HOSTPAY_MASTER_KEY instead)`,
    );
  }
}

/** Who the audit log names for a CLI change: `cli:<login>`. */
export function operatorName(io: Io): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    // No passwd entry for this uid (some containers): fall back to the environment.
    return `cli:${io.env['USER'] ?? io.env['LOGNAME'] ?? 'unknown'}`;
  }
}
