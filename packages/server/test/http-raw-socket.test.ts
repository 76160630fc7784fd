import { connect } from 'node:net';
import { ErrorEnvelope } from '@hostpay/protocol';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/**
 * What Node's HTTP parser refuses before Fastify routes anything, sent as raw bytes over a real
 * socket on loopback: every answer is still the envelope with a code and an x-request-id.
 */
let fx: HttpFixture;
let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  fx = await createFixture();
  app = await fx.buildApp();
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => fx.close());

/** Sends `bytes`, returns everything the server wrote until it closed (or 5 s passed). */
function raw(bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    }, 5000);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.end(bytes);
  });
}

function parse(response: string): { status: number; headers: Record<string, string>; body: string } {
  const split = response.indexOf('\r\n\r\n');
  expect(split, JSON.stringify(response)).toBeGreaterThan(0);
  const [statusLine, ...lines] = response.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: response.slice(split + 4) };
}

function expectEnvelope(response: string, status: number, code: string): void {
  const { status: got, headers, body } = parse(response);
  expect(got, response).toBe(status);
  expect(headers['content-type']).toBe('application/json; charset=utf-8');
  const envelope: unknown = JSON.parse(body);
  expect(Value.Check(ErrorEnvelope, envelope), body).toBe(true);
  expect((envelope as ErrorEnvelope).error.code).toBe(code);
  expect(headers['x-request-id']).toMatch(/^req_[0-9a-z]+$/);
  expect((envelope as ErrorEnvelope).error.requestId).toBe(headers['x-request-id']);
  expect(body).not.toMatch(/\s+at .+:\d+|node:internal|\.js:\d/);
}

const CASES: [name: string, bytes: string | (() => string), status: number, code: string][] = [
  ['garbage instead of a request line', 'HELLO\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  ['an unknown method', 'BREW /api/v1/time HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  ['a space inside the URL', 'GET /api/v1/ti me HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  ['a control character in the URL', 'GET /api/v1/\x01time HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  ['a bad HTTP version', 'GET /api/v1/time HTTP/9.9\r\nHost: x\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  [
    'a header line without a colon',
    'GET /api/v1/time HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n',
    400,
    'MALFORMED_REQUEST',
  ],
  [
    'headers past the size limit',
    () => `GET /api/v1/time HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    431,
    'HEADERS_TOO_LARGE',
  ],
  [
    'a request line past the size limit',
    () => `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    431,
    'HEADERS_TOO_LARGE',
  ],
  [
    'an Expect other than 100-continue',
    'POST /api/v1/auth/token HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 0\r\n\r\n',
    417,
    'EXPECTATION_FAILED',
  ],
  [
    'bad chunked encoding',
    'POST /api/v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    400,
    'MALFORMED_REQUEST',
  ],
  [
    'both Content-Length and chunked (smuggling)',
    'POST /api/v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    400,
    'MALFORMED_REQUEST',
  ],
  [
    'two different Content-Lengths',
    'POST /api/v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    400,
    'MALFORMED_REQUEST',
  ],
  // Issue 24 item 5: Node hands CONNECT to 'connect' listeners and closes the socket without one.
  [
    'CONNECT to an authority',
    'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n',
    400,
    'MALFORMED_REQUEST',
  ],
  ['CONNECT to a path', 'CONNECT /api/v1/time HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  [
    'a method the parser knows and no route takes',
    'PROPFIND /api/v1/time HTTP/1.1\r\nHost: x\r\n\r\n',
    405,
    'METHOD_NOT_ALLOWED',
  ],
  ['TRACE', 'TRACE /api/v1/time HTTP/1.1\r\nHost: x\r\n\r\n', 405, 'METHOD_NOT_ALLOWED'],
  ['HTTP/1.1 without Host', 'GET /api/v1/time HTTP/1.1\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  [
    'a percent-encoding that is not UTF-8',
    'GET /api/v1/cp/wallets/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n',
    400,
    'INVALID_QUERY',
  ],
];

describe('raw-socket junk gets the envelope with a code and x-request-id', () => {
  for (const [name, bytes, status, code] of CASES) {
    it(`${name} -> ${status} ${code}`, async () => {
      expectEnvelope(await raw(typeof bytes === 'function' ? bytes() : bytes), status, code);
    });
  }

  it('a well-formed request on the same server still works', async () => {
    const { status, body } = parse(await raw('GET /api/v1/time HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    expect(status).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ status: true });
  });
});
