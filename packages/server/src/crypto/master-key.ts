import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MASTER_KEY_FILE = 'master.key';

/** Parses a master key given as 64 hex characters or base64 of 32 bytes. */
export function parseMasterKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) {
    throw new Error(
      'HOSTPAY_MASTER_KEY must be 32 bytes, written as 64 hex characters or base64 (openssl rand -base64 32)',
    );
  }
  return key;
}

export interface MasterKeySource {
  key: Buffer;
  /** Where it came from, for the start-up log; never the key itself. */
  origin: 'environment' | 'file' | 'generated';
  file?: string;
}

/**
 * The master key: from the environment, else from `<dataDir>/master.key`, else — only when
 * `generate` is allowed (demo mode, local operator commands) — a new one written there with
 * mode 0600. A production deployment sets HOSTPAY_MASTER_KEY and keeps it out of the data dir.
 */
export function resolveMasterKey(envValue: string, dataDir: string, generate: boolean): MasterKeySource {
  if (envValue !== '') return { key: parseMasterKey(envValue), origin: 'environment' };
  const file = join(dataDir, MASTER_KEY_FILE);
  if (existsSync(file)) return { key: parseMasterKey(readFileSync(file, 'utf8')), origin: 'file', file };
  if (!generate) {
    throw new Error(`no master key: set HOSTPAY_MASTER_KEY (32 bytes, base64 or hex) or create ${file}`);
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  return { key, origin: 'generated', file };
}
