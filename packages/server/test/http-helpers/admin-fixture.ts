import { ErrorEnvelope, sign } from '@hostpay/protocol';
import { Value } from '@sinclair/typebox/value';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildApp, type AppDeps } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Services } from '../../src/services.js';
import { tempServices, type Dialect } from '../helpers.js';

/**
 * The admin tests' world: real services on a fresh store (SQLite or a PostgreSQL schema of its
 * own), two operators (alice, bob), an app with a movable clock, and request helpers for both
 * sides of the wall: operator calls and signed merchant calls.
 */
export const ALICE = 'alice-' + randomBytes(24).toString('hex');
export const BOB = 'bob-' + randomBytes(24).toString('hex');
export const OPERATOR_TOKENS = `alice:${ALICE},bob:${BOB}`;

export interface CallOptions {
  body?: unknown;
  /** Operator token; null: no Authorization header. Default alice's. */
  token?: string | null;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export type AdminCall = (method: string, path: string, options?: CallOptions) => Promise<LightMyRequestResponse>;

/** Calls /admin/v1`path` on `app` as an operator. */
export function adminCaller(app: () => FastifyInstance): AdminCall {
  return (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? ALICE : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    return app().inject({
      method: method as 'GET',
      url: `/admin/v1${path}`,
      headers,
      ...(payload === undefined ? {} : { payload }),
      ...(options.remoteAddress === undefined ? {} : { remoteAddress: options.remoteAddress }),
    });
  };
}

/** Asserts a success envelope with `status` and returns its result (JSON.parse: decimals as floats). */
export function resultOf<T = any>(res: LightMyRequestResponse, status = 200): T {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  const body = JSON.parse(res.body) as { status: boolean; isSuccess: boolean; message: string; result: T };
  expect(body.status).toBe(true);
  expect(body.isSuccess).toBe(true);
  expect(typeof body.message).toBe('string');
  return body.result;
}

/** Asserts an error envelope with `status` and `code`; returns it. */
export function errorOf(res: LightMyRequestResponse, status: number, code: string): ErrorEnvelope {
  expect(res.statusCode, res.body).toBe(status);
  const body: unknown = JSON.parse(res.body);
  expect(Value.Check(ErrorEnvelope, body), res.body).toBe(true);
  const envelope = body as ErrorEnvelope;
  expect(envelope.error.code, res.body).toBe(code);
  expect(res.headers['x-request-id']).toBe(envelope.error.requestId);
  return envelope;
}

export interface MerchantKey {
  apiKey: string;
  apiSecret: string;
}

export interface AdminFixture {
  app: FastifyInstance;
  services: Services;
  config: Config;
  clock: { offsetMs: number };
  now(): number;
  call: AdminCall;
  /** A merchant GET with all four headers (token fetched first), from `remoteAddress`. */
  merchantGet(key: MerchantKey, url: string, remoteAddress?: string): Promise<LightMyRequestResponse>;
  buildApp(overrides?: Partial<AppDeps>): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export async function createAdminFixture(
  dialect: Dialect = 'sqlite',
  configOverrides: Partial<Config> = {},
): Promise<AdminFixture> {
  const env = await tempServices(dialect);
  const config = loadConfig(
    {},
    {
      dataDir: env.dataDir,
      logLevel: 'silent',
      authFailureLimitPerMinute: 100_000,
      adminTokens: OPERATOR_TOKENS,
      ...configOverrides,
    },
  );
  const clock = { offsetMs: 0 };
  const now = () => Date.now() + clock.offsetMs;
  const apps: FastifyInstance[] = [];
  const build = async (overrides: Partial<AppDeps> = {}) => {
    const app = await buildApp({
      config,
      services: env.services.merchant,
      admin: env.services.admin,
      features: env.services,
      now,
      logger: false,
      ...overrides,
    });
    await app.ready();
    apps.push(app);
    return app;
  };
  const fx: AdminFixture = {
    app: await build(),
    services: env.services,
    config,
    clock,
    now,
    call: adminCaller(() => fx.app),
    async merchantGet(key, url, remoteAddress) {
      const signed = () => {
        const timestamp = String(Math.floor(now() / 1000));
        return { 'api-key': key.apiKey, timestamp, signature: sign(key.apiSecret, timestamp, '') };
      };
      const from = remoteAddress === undefined ? {} : { remoteAddress };
      const tokenRes = await fx.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers: signed(), ...from });
      if (tokenRes.statusCode !== 200) return tokenRes;
      const token = (JSON.parse(tokenRes.body) as { result: { accessToken: string } }).result.accessToken;
      return fx.app.inject({ method: 'GET', url, headers: { ...signed(), authorization: `Bearer ${token}` }, ...from });
    },
    buildApp: build,
    async close() {
      for (const app of apps) await app.close();
      await env.cleanup();
    },
  };
  return fx;
}
