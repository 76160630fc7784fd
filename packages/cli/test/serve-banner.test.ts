import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresAvailable, redisAvailable, TEST_DATABASE_URL, TEST_REDIS_URL } from '../../server/test/helpers.js';
import { dropPostgresSchema } from '../../server/src/store/postgres.js';
import { BIN, cleanEnv, tempDir } from './helpers.js';

/**
 * Issue 26, item 13: the start-up summary names the store and the Redis the instance uses, so an
 * operator starting two instances sees whether they share them (before, PostgreSQL mode printed
 * only `data <dir>`).
 */
async function firstLines(env: Record<string, string>, args: string[] = []): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env: cleanEnv({ HOSTPAY_LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner in 30 s; stdout ${out}; stderr ${err}`)), 30_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (/\n {2}redis .*\n/.test(out)) {
          clearTimeout(timer);
          resolve(out);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
  } finally {
    // Waits for the server to stop, so the schema it used is no longer locked when it is dropped.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
  }
}

const dirs: Array<{ remove(): void }> = [];
const schemas: string[] = [];
afterAll(async () => {
  for (const s of schemas) await dropPostgresSchema(TEST_DATABASE_URL, s);
  for (const d of dirs) d.remove();
});

describe('the serve banner names its store and Redis', () => {
  it('SQLite, no Redis', async () => {
    const data = tempDir();
    dirs.push(data);
    const out = await firstLines({
      HOSTPAY_MASTER_KEY: randomBytes(32).toString('base64'),
      HOSTPAY_DATA_DIR: data.dir,
    });
    expect(out).toMatch(/^hostpay listening on http:\/\/127\.0\.0\.1:\d+ /);
    expect(out).toContain(`  store     SQLite ${data.dir}/hostpay.db\n`);
    expect(out).toContain('  redis     none (rate limits and cache invalidation of this instance only)\n');
    // No HOSTPAY_INSTANCE_ID: the id kept in the data directory, named with it.
    const kept = readFileSync(join(data.dir, 'instance-id'), 'utf8').trim();
    expect(out).toContain(`  instance  ${kept} (data ${data.dir})\n`);
  });

  it.runIf(postgresAvailable && redisAvailable)(
    'PostgreSQL and Redis: their addresses (password hidden), schema and prefix',
    async () => {
      const data = tempDir();
      dirs.push(data);
      const schema = `hp_test_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      const url = new URL(TEST_DATABASE_URL);
      url.password = 'not-shown';
      const out = await firstLines({
        HOSTPAY_MASTER_KEY: randomBytes(32).toString('base64'),
        HOSTPAY_DATA_DIR: data.dir,
        HOSTPAY_DATABASE_URL: url.href,
        HOSTPAY_DATABASE_SCHEMA: schema,
        HOSTPAY_REDIS_URL: TEST_REDIS_URL,
        HOSTPAY_REDIS_PREFIX: `${schema}:`,
        HOSTPAY_INSTANCE_ID: 'hostpay-b',
      });
      expect(out).toContain(
        `  store     PostgreSQL postgres://${url.username}:***@${url.host}${url.pathname} (schema ${schema})\n`,
      );
      expect(out).toContain(`  redis     ${TEST_REDIS_URL} (prefix ${schema}:)\n`);
      expect(out).toContain(`  instance  hostpay-b (data ${data.dir})\n`);
      expect(out).not.toContain('not-shown');
    },
    60_000,
  );
});
