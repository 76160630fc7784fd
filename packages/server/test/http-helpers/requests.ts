import { ErrorEnvelope, sign, signV2 } from '@hostpay/protocol';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { HttpFixture, TestKey } from './fixture.js';
import { freshWriteSignature } from './write-signatures.js';

/** Request helpers: signed headers the way a merchant's code builds them, and envelope checks. */
export function unixSeconds(nowMs: number): string {
  return String(Math.floor(nowMs / 1000));
}

/**
 * The key headers. With `target` (method and path?query) signed with version 2, which every route
 * but the interface's two GETs and the token endpoint requires; without, version 1 (interface §5).
 */
export function signedHeaders(
  fx: HttpFixture,
  key: TestKey,
  options: { body?: string; timestamp?: string; target?: { method: string; url: string } } = {},
): Record<string, string> {
  const timestamp = options.timestamp ?? unixSeconds(fx.now());
  const body = options.body ?? '';
  const { target } = options;
  if (target === undefined)
    return { 'api-key': key.apiKey, timestamp, signature: sign(key.apiSecret, timestamp, body) };
  const signAt = (t: string) => signV2(key.apiSecret, t, target.method, target.url, body);
  const write = options.timestamp === undefined && target.method !== 'GET' && target.method !== 'HEAD';
  const signed = write
    ? freshWriteSignature(key.apiKey, timestamp, signAt)
    : { timestamp, signature: signAt(timestamp) };
  return { 'api-key': key.apiKey, timestamp: signed.timestamp, 'signature-version': '2', signature: signed.signature };
}

export async function requestToken(
  fx: HttpFixture,
  key: TestKey,
  body = '',
  app: FastifyInstance = fx.app,
): Promise<LightMyRequestResponse> {
  const headers = signedHeaders(fx, key, { body });
  if (body !== '') headers['content-type'] = 'application/json';
  return app.inject({ method: 'POST', url: '/api/v1/auth/token', headers, payload: body });
}

export async function issueToken(fx: HttpFixture, key: TestKey, body = '', app?: FastifyInstance): Promise<string> {
  const res = await requestToken(fx, key, body, app);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { result: { accessToken: string } }).result.accessToken;
}

/** All four headers of interface §5 (version 1); with `target`, signed with version 2 for that request. */
export async function merchantHeaders(
  fx: HttpFixture,
  key: TestKey,
  token?: string,
  target?: { method: string; url: string },
): Promise<Record<string, string>> {
  return {
    ...signedHeaders(fx, key, target === undefined ? {} : { target }),
    authorization: `Bearer ${token ?? (await issueToken(fx, key))}`,
  };
}

/** Asserts an error response: status, code, envelope shape, request id in header and body. */
export function expectError(res: LightMyRequestResponse, status: number, code: string): ErrorEnvelope {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const body: unknown = JSON.parse(res.body);
  expect(Value.Check(ErrorEnvelope, body), res.body).toBe(true);
  const envelope = body as ErrorEnvelope;
  expect(envelope.error.code).toBe(code);
  expect(res.headers['x-request-id']).toBe(envelope.error.requestId);
  return envelope;
}
