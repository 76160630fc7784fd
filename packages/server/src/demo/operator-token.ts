import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEMO_OPERATOR_TOKEN_FILE = 'operator.token';

/**
 * The demo's operator token, for the console and the admin API when none is configured: made
 * once per data directory (like the demo master key), kept beside the data, readable by its owner only.
 */
export function demoOperatorToken(dataDir: string): string {
  const file = join(dataDir, DEMO_OPERATOR_TOKEN_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(32).toString('hex');
  writeFileSync(file, token + '\n', { mode: 0o600 });
  return token;
}
