import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS } from '@hostpay/protocol';
import { HostpayClient, HostpayError, isHostpayError } from '../src/index.js';
import { errorReply, startServer, type Reply, type TestServer } from './helpers/http-server.js';

let server: TestServer;
let reply: Reply;
beforeAll(async () => {
  server = await startServer(() => reply);
});
afterAll(() => server.close());

const client = () =>
  new HostpayClient({ baseUrl: server.url, apiKey: 'k', apiSecret: 's', bearerToken: 't', maxRetries: 0 });

async function failure(r: Reply): Promise<HostpayError> {
  reply = r;
  const error = await client()
    .listWallets()
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(HostpayError);
  return error as HostpayError;
}

describe('every server error code surfaces as a typed HostpayError', () => {
  for (const code of ERROR_CODES) {
    const status = ERROR_STATUS[code];
    it(`${status} ${code}`, async () => {
      const error = await failure(errorReply(status, code, { field: 'x' }));
      expect(error).toMatchObject({
        name: 'HostpayError',
        status,
        code,
        requestId: `req-${code.toLowerCase()}`,
        details: { field: 'x' },
      });
      expect(error.message).toBe(`${code} happened`);
      expect(isHostpayError(error)).toBe(true);
    });
  }
});

describe('responses that are not hostpay envelopes', () => {
  it('an HTML 500 is HTTP_ERROR with the header request id', async () => {
    const error = await failure({ status: 500, headers: { 'x-request-id': 'from-header' }, body: '<html>oops</html>' });
    expect(error).toMatchObject({ code: 'HTTP_ERROR', status: 500, requestId: 'from-header' });
  });
  it('a 200 that is not an envelope is INVALID_RESPONSE', async () => {
    expect(await failure({ status: 200, body: '{"hello":"world"}' })).toMatchObject({
      code: 'INVALID_RESPONSE',
      status: 200,
    });
    expect(await failure({ status: 200, body: 'not json' })).toMatchObject({ code: 'INVALID_RESPONSE' });
  });
  it('an error envelope without requestId falls back to the x-request-id header', async () => {
    const body = { status: false, isSuccess: false, message: 'no', result: null, error: { code: 'INTERNAL' } };
    expect(await failure({ status: 500, headers: { 'x-request-id': 'hdr' }, body })).toMatchObject({
      code: 'INTERNAL',
      requestId: 'hdr',
    });
  });
  it('a refused connection is NETWORK_ERROR with status 0', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const c = new HostpayClient({ baseUrl: closed.url, apiKey: 'k', apiSecret: 's', maxRetries: 0 });
    await expect(c.serverTime()).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });
});

describe('isHostpayError', () => {
  it('recognises an error from another realm or copy of the package by name', () => {
    const foreign: unknown = runInNewContext(
      `(() => { const e = new Error('x'); e.name = 'HostpayError'; e.code = 'INTERNAL'; e.status = 500; return e; })()`,
    );
    expect(foreign instanceof HostpayError).toBe(false);
    expect(isHostpayError(foreign)).toBe(true);
  });
  it('rejects look-alikes without code and status', () => {
    expect(isHostpayError(Object.assign(new Error('x'), { name: 'HostpayError' }))).toBe(false);
    expect(isHostpayError(new Error('x'))).toBe(false);
    expect(isHostpayError(null)).toBe(false);
  });
});
