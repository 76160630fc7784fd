import { UsageError, type Io } from '../output.js';
import type { AdminBackend } from './backend.js';
import type { AdminOptions } from './options.js';

export type BackendTarget =
  | { kind: 'remote'; url: string; token: string }
  | { kind: 'local'; dataDir: string | undefined };

const setting = (io: Io, name: string): string | undefined => (io.env[name] === '' ? undefined : io.env[name]);

/**
 * Where an operator command acts: `--admin-url`, else `--data-dir`, else `$HOSTPAY_ADMIN_URL`,
 * else the local store of `$HOSTPAY_DATA_DIR` (or ./.hostpay). Flags win over the environment,
 * so `--data-dir` works on a machine that exports HOSTPAY_ADMIN_URL.
 */
export function backendTarget(io: Io, opts: AdminOptions): BackendTarget {
  const url = opts.adminUrl ?? (opts.dataDir === undefined ? setting(io, 'HOSTPAY_ADMIN_URL') : undefined);
  if (url === undefined) return { kind: 'local', dataDir: opts.dataDir };
  if (!/^https?:\/\/[^/]/i.test(url))
    throw new UsageError(`admin URL must start with http:// or https://, got ${JSON.stringify(url)}`);
  const token = setting(io, 'HOSTPAY_ADMIN_TOKEN');
  if (token === undefined) {
    throw new UsageError(
      `the admin API at ${url} needs an operator token: set HOSTPAY_ADMIN_TOKEN (one of the server's HOSTPAY_ADMIN_TOKEN / HOSTPAY_ADMIN_TOKENS)`,
    );
  }
  return { kind: 'remote', url: url.replace(/\/+$/, ''), token };
}

/** Opens the backend the options name, runs `fn`, always closes it. */
export async function withBackend<T>(
  io: Io,
  opts: AdminOptions,
  fn: (backend: AdminBackend) => Promise<T>,
  settings: { allowNewMasterKey?: boolean } = {},
): Promise<T> {
  const target = backendTarget(io, opts);
  const backend =
    target.kind === 'remote'
      ? (await import('./remote-backend.js')).remoteBackend({ url: target.url, token: target.token })
      : await (await import('./local-backend.js')).openLocalBackend(io, {
          dataDir: target.dataDir,
          allowNewMasterKey: settings.allowNewMasterKey ?? true,
        });
  try {
    return await fn(backend);
  } finally {
    await backend.close();
  }
}
