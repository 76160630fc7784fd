import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandError, describeError } from '../src/output.js';
import { hostpay, lines, type Result } from './helpers.js';
import { startCheckoutServer, type RealServer } from './test-server.js';

/**
 * The exit codes and the `--json` error envelope, through the real bin against a real server: one
 * case per class of failure the README documents (usage 2, API refusal 1, no answer 3, refused
 * credentials 4). Scripts tell failures apart by these, so each is checked end to end.
 */
const TOKEN = randomBytes(32).toString('hex');
/** Runs the CLI with its clock an hour behind: its signatures fall outside the server's window. */
const CLOCK_AN_HOUR_BEHIND = {
  NODE_OPTIONS: '--import=data:text/javascript,const%20n%3DDate.now%3BDate.now%3D()%3D%3En()-3600000%3B',
};

/** A loopback port with nothing listening on it: connections are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Envelope {
  status: false;
  code: string;
  message: string;
  requestId: string | null;
  details: Record<string, unknown> | null;
}

describe('exit codes and the --json error envelope', () => {
  let server: RealServer;
  let down: string;
  const merchant = (extra: Record<string, string> = {}) => ({
    HOSTPAY_BASE_URL: server.url,
    HOSTPAY_API_KEY: server.demo.apiKey,
    HOSTPAY_API_SECRET: server.demo.apiSecret,
    ...extra,
  });
  const operator = (token = TOKEN) => ({ HOSTPAY_ADMIN_URL: server.url, HOSTPAY_ADMIN_TOKEN: token });

  beforeAll(async () => {
    server = await startCheckoutServer(`alice:${TOKEN}`);
    down = `http://127.0.0.1:${await closedPort()}`;
  });
  afterAll(() => server.close());

  /** The failure's one stderr line, and with --json its envelope: the one document on stdout. */
  function failed(r: Result, exit: number): { line: string; envelope: Envelope } {
    expect(r.code, r.stderr).toBe(exit);
    expect(lines(r.stderr), r.stderr).toHaveLength(1);
    expect(lines(r.stdout), r.stdout).toHaveLength(1);
    const envelope = JSON.parse(r.stdout) as Envelope;
    expect(Object.keys(envelope)).toEqual(['status', 'code', 'message', 'requestId', 'details']);
    expect(envelope.status).toBe(false);
    // The stderr line carries the same facts for people.
    expect(r.stderr).toContain(envelope.message);
    return { line: r.stderr.trimEnd(), envelope };
  }

  it.each<[string, number, string, boolean, () => [string[], Record<string, string>]]>([
    ['usage: an unknown option', 2, 'USAGE', false, () => [['wallets', '--json', '--bogus'], merchant()]],
    ['usage: no API key anywhere', 2, 'USAGE', false, () => [['wallets', '--json'], {}]],
    [
      'usage: --admin-url without a token',
      2,
      'USAGE',
      false,
      () => [['merchant', 'list', '--json', '--admin-url', server.url], {}],
    ],
    [
      'API refusal: no such checkout',
      1,
      'NOT_FOUND',
      true,
      () => [['checkout', 'get', 'chk_nope', '--json'], merchant()],
    ],
    [
      'API refusal: operator, no such wallet',
      1,
      'NOT_FOUND',
      true,
      () => [['wallet', 'get', 'wal_nope', '--json'], operator()],
    ],
    [
      'no answer: merchant command, nothing listening',
      3,
      'NETWORK_ERROR',
      false,
      () => [['wallets', '--json'], merchant({ HOSTPAY_BASE_URL: down })],
    ],
    [
      'no answer: signed helper, nothing listening',
      3,
      'UNAVAILABLE',
      false,
      () => [['token', '--json'], merchant({ HOSTPAY_BASE_URL: down })],
    ],
    [
      'no answer: operator command, nothing listening',
      3,
      'UNAVAILABLE',
      false,
      () => [['merchant', 'list', '--json', '--admin-url', down], operator()],
    ],
    [
      'credentials: a wrong API secret',
      4,
      'INVALID_SIGNATURE',
      true,
      () => [['wallets', '--json'], merchant({ HOSTPAY_API_SECRET: 'sk_wrong' })],
    ],
    [
      'credentials: a wrong operator token',
      4,
      'INVALID_TOKEN',
      true,
      () => [['merchant', 'list', '--json'], operator('x'.repeat(40))],
    ],
  ])('%s: exit %i, code %s', async (_, exit, code, fromServer, setup) => {
    const [args, env] = setup();
    const { line, envelope } = failed(await hostpay(args, env), exit);
    expect(envelope.code).toBe(code);
    if (fromServer) {
      expect(envelope.requestId).toMatch(/^req_\w+$/);
      expect(line).toBe(`hostpay: ${code}: ${envelope.message} (request id ${envelope.requestId})`);
    } else {
      expect(envelope.requestId).toBeNull();
      expect(line).toBe(code === 'USAGE' ? `hostpay: ${envelope.message}` : `hostpay: ${code}: ${envelope.message}`);
    }
  });

  it("carries the server's details: a clock an hour off gets TIMESTAMP_OUT_OF_WINDOW with serverTime, exit 4", async () => {
    const r = await hostpay(['token', '--json'], merchant(CLOCK_AN_HOUR_BEHIND));
    const { envelope } = failed(r, 4);
    expect(envelope.code).toBe('TIMESTAMP_OUT_OF_WINDOW');
    expect(envelope.requestId).toMatch(/^req_\w+$/);
    expect(Math.abs(Number(envelope.details?.['serverTime']) - Date.now() / 1000)).toBeLessThan(30);
  });

  it('without --json a failure leaves stdout empty: the same exit code, the one stderr line', async () => {
    const r = await hostpay(['checkout', 'get', 'chk_nope'], merchant());
    expect([r.code, r.stdout, lines(r.stderr).length]).toEqual([1, '', 1]);
    expect(r.stderr).toMatch(/^hostpay: NOT_FOUND: .* \(request id req_\w+\)\n$/);
  });

  it('--json after `--` is an argument, not the option: no envelope', async () => {
    const r = await hostpay(['checkout', 'get', '--', '--json'], merchant());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
  });
});

/** Errors no test server gives on demand (a proxy's 502, a rate limit): the mapping itself. */
describe('exit code of a failure', () => {
  /** A HostpayError of @hostpay/client, recognised by its shape. */
  const clientError = (code: string, status: number) =>
    Object.assign(new Error('x'), { name: 'HostpayError', code, status, requestId: undefined, details: undefined });

  it.each<[string, number, string, unknown]>([
    ['a proxy answered 502 without an envelope', 3, 'HTTP_ERROR', clientError('HTTP_ERROR', 502)],
    [
      'a proxy answered 504 (admin API)',
      3,
      'UNEXPECTED_RESPONSE',
      new CommandError('UNEXPECTED_RESPONSE', 'x', undefined, { status: 504 }),
    ],
    ['the store is busy', 3, 'STORE_BUSY', clientError('STORE_BUSY', 503)],
    ['rate limited', 1, 'RATE_LIMITED', new CommandError('RATE_LIMITED', 'x', 'req_1', { status: 429 })],
    ['a scope is missing', 4, 'SCOPE_MISSING', clientError('SCOPE_MISSING', 403)],
    [
      'a 200 that is no envelope',
      1,
      'UNEXPECTED_RESPONSE',
      new CommandError('UNEXPECTED_RESPONSE', 'x', undefined, { status: 200 }),
    ],
    ['an error without a code', 1, 'FAILED', new Error('EACCES: permission denied')],
  ])('%s: exit %i, code %s', (_, exit, code, err) => {
    const { exitCode, envelope } = describeError(err);
    expect([exitCode, envelope?.code]).toEqual([exit, code]);
  });
});
