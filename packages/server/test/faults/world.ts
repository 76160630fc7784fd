import { sign, signV2 } from '@hostpay/protocol';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDemo, type DemoCredentials } from '../../src/demo/seed.js';
import { createServices } from '../../src/services.js';
import { dropPostgresSchema, openPostgresStore } from '../../src/store/postgres.js';
import { postgresAvailable, redisAvailable, TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers.js';
import type { TcpProxy } from './tcp-proxy.js';
import { freshWriteSignature } from '../http-helpers/write-signatures.js';

// Gated like every PostgreSQL / Redis suite (test/helpers.ts): with CI=true they always run and
// fail loudly if a server is unreachable; elsewhere they are skipped with the reason printed.
export { postgresAvailable, redisAvailable, TEST_DATABASE_URL, TEST_REDIS_URL };

/** Host and port of a redis:// or postgres:// URL, for a proxy to forward to. */
export function targetOf(url: string, defaultPort: number): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || defaultPort) };
}

/** `url` with its host and port replaced by the proxy's: the server under test talks to the proxy. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = proxy.host;
  u.port = String(proxy.port);
  return u.toString();
}

export const MASTER_KEY = randomBytes(32).toString('hex');
export const ADMIN_TOKEN = randomBytes(32).toString('hex');

export interface SeededSchema {
  schema: string;
  dataDir: string;
  demo: DemoCredentials;
  /** The environment of a `hostpay serve` on this schema and data dir (log level warn); add what a test needs. */
  serverEnv: Record<string, string>;
  remove(): Promise<void>;
}

/**
 * A fresh PostgreSQL schema `hp_test_<random>` holding the demo data (merchant, key, wallets,
 * fee schedules), written directly (not through any proxy) with MASTER_KEY; `remove` drops it.
 */
export async function seedPostgresSchema(): Promise<SeededSchema> {
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-faults-'));
  const remove = async (): Promise<void> => {
    await dropPostgresSchema(TEST_DATABASE_URL, schema);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const store = await openPostgresStore(TEST_DATABASE_URL, { schema });
    const services = await createServices(
      { dataDir, databaseUrl: TEST_DATABASE_URL, masterKey: MASTER_KEY },
      { store },
    );
    try {
      const demo = await seedDemo(services, dataDir);
      const serverEnv = {
        HOSTPAY_DATABASE_URL: TEST_DATABASE_URL,
        HOSTPAY_DATABASE_SCHEMA: schema,
        HOSTPAY_MASTER_KEY: MASTER_KEY,
        HOSTPAY_DATA_DIR: dataDir,
        HOSTPAY_LOG_LEVEL: 'warn',
      };
      return { schema, dataDir, demo, serverEnv, remove };
    } finally {
      await services.close();
    }
  } catch (err) {
    await remove();
    throw err;
  }
}

export interface SeededSqlite {
  dataDir: string;
  demo: DemoCredentials;
  /** A second key of the demo merchant, limited to `limitedKeyRate` requests a minute. */
  limited: { apiKey: string; apiSecret: string };
  remove(): void;
}

/**
 * The demo data in an embedded SQLite store in a temp dir (HOSTPAY_DATA_DIR for the server under
 * test), with MASTER_KEY and a second key limited to `limitedKeyRate` requests a minute.
 */
export async function seedSqlite(limitedKeyRate: number): Promise<SeededSqlite> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-faults-'));
  const remove = (): void => rmSync(dataDir, { recursive: true, force: true });
  try {
    const services = await createServices({ dataDir, databaseUrl: '', masterKey: MASTER_KEY });
    try {
      const demo = await seedDemo(services, dataDir);
      const key = await services.admin.createApiKey(
        demo.merchantId,
        { rateLimitPerMinute: limitedKeyRate, label: 'limited' },
        { operator: 'faults' },
      );
      return { dataDir, demo, limited: { apiKey: key.apiKey, apiSecret: key.apiSecret }, remove };
    } finally {
      await services.close();
    }
  } catch (err) {
    remove();
    throw err;
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
  ms: number;
}

/** One HTTP request, timed from send to the end of the body; a network failure rejects. */
export async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(url, { ...init, signal: init.signal ?? AbortSignal.timeout(15_000) });
  const text = await res.text();
  const ms = performance.now() - started;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text, ms };
}

export const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** A merchant's backend: the three key headers, plus a bearer token for the merchant routes. */
export class Merchant {
  token: string | undefined;
  constructor(
    readonly baseUrl: string,
    readonly key: { apiKey: string; apiSecret: string },
  ) {}

  /** The key headers: version 1, or with `target` version 2 (which every route but the interface's GETs and the token requires). */
  signed(body = '', target?: { method: string; path: string }): Record<string, string> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    if (target === undefined)
      return { 'api-key': this.key.apiKey, timestamp, signature: sign(this.key.apiSecret, timestamp, body) };
    const signAt = (t: string) => signV2(this.key.apiSecret, t, target.method, target.path, body);
    const signed =
      target.method === 'GET'
        ? { timestamp, signature: signAt(timestamp) }
        : freshWriteSignature(this.key.apiKey, timestamp, signAt);
    return {
      'api-key': this.key.apiKey,
      timestamp: signed.timestamp,
      'signature-version': '2',
      signature: signed.signature,
    };
  }

  requestToken(): Promise<Answer> {
    return request(`${this.baseUrl}/api/v1/auth/token`, { method: 'POST', headers: this.signed() });
  }

  async login(): Promise<void> {
    const res = await this.requestToken();
    if (res.status !== 200) throw new Error(`token request answered ${res.status}: ${res.text}`);
    this.token = (res.body as { result: { accessToken: string } }).result.accessToken;
  }

  get(path: string): Promise<Answer> {
    if (this.token === undefined) throw new Error('login first');
    const signed = this.signed('', { method: 'GET', path });
    return request(`${this.baseUrl}${path}`, { headers: { ...signed, authorization: `Bearer ${this.token}` } });
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns true or `timeoutMs` passes; resolves with the ms it took. */
export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 5000,
  everyMs = 100,
): Promise<number> {
  const started = performance.now();
  let last: unknown;
  for (;;) {
    try {
      if (await probe()) return performance.now() - started;
    } catch (err) {
      last = err;
    }
    if (performance.now() - started > timeoutMs)
      throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A signed POST of a merchant route (JSON body, signed as sent), with the bearer token. */
export function merchantPost(
  merchant: Merchant,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  if (merchant.token === undefined) throw new Error('login first');
  const text = JSON.stringify(body);
  return request(`${merchant.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      ...merchant.signed(text, { method: 'POST', path }),
      authorization: `Bearer ${merchant.token}`,
      'content-type': 'application/json',
      ...headers,
    },
    body: text,
  });
}

/** An admin POST with a JSON body. */
export function adminPost(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return request(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { ...adminHeaders, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
