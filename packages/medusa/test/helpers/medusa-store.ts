import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The Medusa project the test runs: packages/medusa/integration (its own package.json and lock file). */
export const PROJECT = join(ROOT, 'packages/medusa/integration');
const CLI = join(PROJECT, 'node_modules/@medusajs/cli/cli.js');
const ADMIN_URL = process.env.HOSTPAY_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.HOSTPAY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** npm's and vitest's environment left out: Medusa and npm run as a shop would run them. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (
      v !== undefined &&
      !/^npm_/i.test(k) &&
      !k.startsWith('HOSTPAY_') &&
      !k.startsWith('VITEST') &&
      k !== 'NODE_ENV'
    )
      env[k] = v;
  return env;
}

/**
 * Why the real-store test cannot run here, or null: the Medusa install (its own lock file), and
 * PostgreSQL and Redis reachable. Outside CI a missing piece skips the test with this reason
 * printed; with CI=true (where .ci/run installs everything) it is a failure.
 */
export async function medusaPrerequisites(): Promise<string | null> {
  const missing: string[] = [];
  if (!existsSync(CLI))
    missing.push(
      `Medusa is not installed in ${PROJECT} (npm ci --prefix packages/medusa/integration --ignore-scripts)`,
    );
  const probe = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 1000 });
  try {
    await probe.connect();
    await probe.end();
  } catch (err) {
    missing.push(`PostgreSQL at ${ADMIN_URL} unreachable (${(err as Error).message})`);
  }
  const redis = new URL(REDIS_URL);
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: redis.hostname, port: Number(redis.port || 6379) });
    socket.setTimeout(1000, () => socket.destroy(new Error('timeout')));
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  if (!reachable) missing.push(`Redis at ${REDIS_URL} unreachable`);
  if (missing.length === 0) return null;
  const reason = `the real Medusa store test cannot run: ${missing.join('; ')}`;
  if (process.env.CI) throw new Error(`${reason}; CI must run it`);
  console.warn(`[hostpay tests] skipping ${reason}`);
  return reason;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Installs @hostpay/medusa as a shop would: `npm pack` of it and of @hostpay/client (dist as
 * built), unpacked into the Medusa project's node_modules/@hostpay/, where Medusa's require finds
 * them and they find Medusa's @medusajs/framework.
 */
export async function installPackedProvider(): Promise<string[]> {
  if (!existsSync(CLI))
    throw new Error(
      `Medusa is not installed in ${PROJECT}: run npm ci --prefix packages/medusa/integration --ignore-scripts (.ci/run does)`,
    );
  const out = mkdtempSync(join(tmpdir(), 'hostpay-medusa-pack-'));
  try {
    await run(
      'npm',
      ['pack', '--pack-destination', out, '--loglevel=error', '-w', '@hostpay/client', '-w', '@hostpay/medusa'],
      {
        cwd: ROOT,
        env: cleanEnv(),
      },
    );
    const tarballs = readdirSync(out).sort();
    for (const file of tarballs) {
      const name = /^hostpay-(client|medusa)-/.exec(file)?.[1];
      if (!name) continue;
      const dest = join(PROJECT, 'node_modules/@hostpay', name);
      rmSync(dest, { recursive: true, force: true });
      mkdirSync(dest, { recursive: true });
      await run('tar', ['xzf', join(out, file), '-C', dest, '--strip-components=1']);
    }
    return tarballs;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export interface MedusaDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database of its own on the local PostgreSQL, dropped after. */
export async function createDatabase(): Promise<MedusaDatabase> {
  const name = `medusa_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface MedusaEnv {
  databaseUrl: string;
  port: number;
  hostpayUrl: string;
  apiKey: string;
  apiSecret: string;
  webhookSecret: string;
  redisPrefix: string;
}

function medusaEnv(e: MedusaEnv, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...cleanEnv(),
    DATABASE_URL: e.databaseUrl,
    REDIS_URL: REDIS_URL,
    MEDUSA_REDIS_PREFIX: e.redisPrefix,
    MEDUSA_JWT_SECRET: randomBytes(16).toString('hex'),
    MEDUSA_COOKIE_SECRET: randomBytes(16).toString('hex'),
    // Loopback only: no telemetry leaves the machine.
    MEDUSA_DISABLE_TELEMETRY: 'true',
    PORT: String(e.port),
    HOSTPAY_URL: e.hostpayUrl,
    HOSTPAY_API_KEY: e.apiKey,
    HOSTPAY_API_SECRET: e.apiSecret,
    HOSTPAY_WEBHOOK_SECRET: e.webhookSecret,
    ...extra,
  };
}

/** A `medusa` command to its end; rejects with its output when it fails. */
export async function medusa(args: string[], e: MedusaEnv, extra: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      cwd: PROJECT,
      env: medusaEnv(e, extra),
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout + stderr;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`medusa ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`.slice(-8000));
  }
}

export interface Seed {
  publishableKey: string;
  regionId: string;
  variantId: string;
  salesChannelId: string;
}

/** `medusa exec ./seed.js`: admin user, sales channel and publishable key, EUR region paid with hostpay, a product. */
export async function seed(e: MedusaEnv, admin: { email: string; password: string }): Promise<Seed> {
  const out = join(mkdtempSync(join(tmpdir(), 'hostpay-medusa-seed-')), 'seed.json');
  await medusa(['exec', './seed.js'], e, {
    SEED_OUT: out,
    SEED_ADMIN_EMAIL: admin.email,
    SEED_ADMIN_PASSWORD: admin.password,
  });
  const seeded = JSON.parse(readFileSync(out, 'utf8')) as Seed;
  rmSync(join(out, '..'), { recursive: true, force: true });
  return seeded;
}

export interface MedusaServer {
  url: string;
  /** Everything the server printed so far. */
  output(): string;
  /** Resolves once the output has a line matching `pattern` (after `from`, an offset of output()). */
  waitForLine(pattern: RegExp, timeoutMs?: number, from?: number): Promise<string>;
  stop(): Promise<void>;
}

/** `medusa start`, resolved once it says it is ready. */
export async function startMedusa(e: MedusaEnv): Promise<MedusaServer> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'start'], {
    cwd: PROJECT,
    env: medusaEnv(e),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const w of waiters) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let dead = false;
  void exited.then(() => {
    dead = true;
    for (const w of waiters) w();
  });
  const waitForLine = (pattern: RegExp, timeoutMs = 60_000, from = 0) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = text
          .slice(from)
          .split('\n')
          .find((l) => pattern.test(l));
        if (match !== undefined) return done(() => resolve(match));
        if (dead) done(() => reject(new Error(`medusa exited before printing ${pattern}:\n${text.slice(-6000)}`)));
      };
      const timer = setTimeout(
        () =>
          done(() =>
            reject(new Error(`medusa did not print ${pattern} within ${timeoutMs} ms:\n${text.slice(-6000)}`)),
          ),
        timeoutMs,
      );
      const done = (then: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        then();
      };
      waiters.add(check);
      check();
    });
  const server: MedusaServer = {
    url: `http://127.0.0.1:${e.port}`,
    output: () => text,
    waitForLine,
    stop: async () => {
      if (!dead) child.kill('SIGTERM');
      await exited;
    },
  };
  try {
    await waitForLine(/Server is ready on port/, 300_000);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

/** Removes the keys this run left in Redis (event bus queue, sessions): every key naming `runId`. */
export async function clearRedis(runId: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `*${runId}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/**
 * Type-checks `files` (name → TypeScript text) inside the Medusa project, strict, against the
 * packed @hostpay/medusa and Medusa's real types; answers tsc's complaints ('' when none).
 */
export async function typecheckInStore(files: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(join(PROJECT, '.typecheck-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const tsconfig = {
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        strict: true,
        noEmit: true,
        // Medusa's own declarations are not ours to check; ours are used, and must fit Medusa's types.
        skipLibCheck: true,
        types: ['node'],
      },
      files: Object.keys(files),
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const result = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir }).catch(
      (e: { stdout: string }) => e,
    );
    return result.stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
