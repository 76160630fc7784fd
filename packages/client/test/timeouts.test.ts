import { afterEach, describe, expect, it } from 'vitest';
import { HostpayClient, type HostpayClientOptions, HostpayError } from '../src/index.js';
import { errorReply, okReply, startServer, type Reply, type TestServer } from './helpers/http-server.js';

let server: TestServer | undefined;
afterEach(() => server?.close());

const TIME = okReply({ unixTime: 1, iso: '1970-01-01T00:00:01.000Z', toleranceSeconds: 60 });
const never = () => new Promise<undefined>(() => undefined);

/** A server that answers with `replies` in turn and then hangs forever. */
async function serve(...replies: Reply[]) {
  let n = 0;
  server = await startServer(() => (n < replies.length ? replies[n++] : never()));
  return server;
}

const client = (url: string, extra: Partial<HostpayClientOptions> = {}) =>
  new HostpayClient({ baseUrl: url, apiKey: 'k', apiSecret: 's', retryDelay: () => 0, ...extra });

async function failure(promise: Promise<unknown>): Promise<HostpayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostpayError);
  return error as HostpayError;
}

describe('timeouts', () => {
  it('a hanging server ends in TIMEOUT after timeoutMs', async () => {
    const s = await serve();
    const started = Date.now();
    const error = await failure(client(s.url, { timeoutMs: 200 }).serverTime());
    expect(error).toMatchObject({ code: 'TIMEOUT', status: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a per-call timeoutMs overrides the client option', async () => {
    const s = await serve();
    const started = Date.now();
    await expect(client(s.url, { timeoutMs: 60_000 }).serverTime({ timeoutMs: 100 })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('the budget covers retries: a hang after a 503 still ends in TIMEOUT', async () => {
    const s = await serve(errorReply(503, 'UNAVAILABLE'));
    await expect(client(s.url, { timeoutMs: 300 }).serverTime()).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(s.requests).toHaveLength(2);
  });

  it('an AbortSignal.timeout of the caller is reported as TIMEOUT too', async () => {
    const s = await serve();
    await expect(client(s.url).serverTime({ signal: AbortSignal.timeout(100) })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
  });
});

describe('aborts', () => {
  it('aborting in flight rejects with ABORTED and the reason as cause', async () => {
    const s = await serve();
    const controller = new AbortController();
    const call = client(s.url).serverTime({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 50);
    const error = await failure(call);
    expect(error).toMatchObject({ code: 'ABORTED', status: 0 });
    expect((error.cause as Error).message).toBe('user left');
  });

  it('an already aborted signal sends nothing', async () => {
    const s = await serve(TIME);
    await expect(client(s.url).serverTime({ signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(s.requests).toHaveLength(0);
  });

  it('aborting during the backoff wait stops at once', async () => {
    const s = await serve(errorReply(503, 'UNAVAILABLE'), TIME);
    const controller = new AbortController();
    const started = Date.now();
    const call = client(s.url, { retryDelay: () => 10_000 }).serverTime({ signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(s.requests).toHaveLength(1);
  });

  it('aborting one caller does not fail the others waiting on the same token', async () => {
    let n = 0;
    server = await startServer(async (req) => {
      if (req.path === '/api/v1/auth/token') {
        n++;
        await new Promise((r) => setTimeout(r, 200));
        return okReply({ accessToken: 't', tokenType: 'Bearer', expiresIn: 3600, expiresAt: '', scope: [] });
      }
      return okReply('[]');
    });
    const c = client(server.url);
    const controller = new AbortController();
    const aborted = c.listWallets({ signal: controller.signal });
    const other = c.listWallets();
    setTimeout(() => controller.abort(), 50);
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(other).resolves.toEqual([]);
    expect(n).toBe(1);
  });
});
