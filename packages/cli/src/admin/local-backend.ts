import { randomBytes } from 'node:crypto';
import type { Config } from '@hostpay/server';
import { configFrom, operatorName, warnIfGeneratedMasterKey } from '../context.js';
import { UsageError, type Io } from '../output.js';
import type { AdminBackend } from './backend.js';
import { injectFetch } from './inject-fetch.js';
import { remoteBackend } from './remote-backend.js';

/** A rotation needs the new key and the old one(s), both from the environment. */
export function requireRotationKeys(config: Pick<Config, 'masterKey' | 'masterKeyPrevious'>): void {
  if (config.masterKey === '' || config.masterKey === undefined || config.masterKeyPrevious === '') {
    throw new UsageError(
      'master-key rotate needs the new key in HOSTPAY_MASTER_KEY and the old one(s) in HOSTPAY_MASTER_KEY_PREVIOUS (comma-separated); see hostpay master-key rotate --help',
    );
  }
}

/**
 * The local store, through the admin API itself: the server's app runs in this process with a
 * one-time operator token named `cli:<login>` (so the audit log names who ran the command) and
 * the commands call it exactly as they call a remote server, through app.inject instead of a
 * socket. There is one implementation of every operator operation: the API's.
 * `allowNewMasterKey`: may create `<data-dir>/master.key` when none exists (never for
 * master-key rotate, which must be given both keys).
 */
export async function openLocalBackend(
  io: Io,
  opts: { dataDir?: string | undefined; allowNewMasterKey: boolean },
): Promise<AdminBackend> {
  const config = await configFrom(io, { dataDir: opts.dataDir });
  const { createServer } = await import('@hostpay/server/app');
  const token = randomBytes(32).toString('base64url');
  const operator = operatorName(io);
  const server = await createServer(config, {
    generateMasterKey: opts.allowNewMasterKey,
    logger: false,
    operatorTokens: new Map([[operator, token]]),
    background: false,
  });
  warnIfGeneratedMasterKey(io, config, server.services);
  const api = remoteBackend({ url: 'http://hostpay.local', token, fetch: injectFetch(server.app) });
  return {
    ...api,
    kind: 'local',
    target: config.dataDir,
    masterKey: {
      // Not an API operation: it needs the master keys themselves, so it runs on the store.
      async rotate() {
        requireRotationKeys(config);
        try {
          return await server.services.admin.rotateMasterKey({ operator });
        } catch (err) {
          // A secret sealed under a key that is in neither variable: the earlier rows are already
          // re-sealed (each is its own transaction), so adding the key and running again finishes.
          if (err instanceof Error && /which is not configured/.test(err.message)) {
            throw new Error(
              `${err.message}: add that key to HOSTPAY_MASTER_KEY_PREVIOUS and run again (secrets already re-sealed stay valid)`,
            );
          }
          throw err;
        }
      },
    },
    close: () => server.close(),
  };
}
