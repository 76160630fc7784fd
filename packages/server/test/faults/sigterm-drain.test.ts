import { sign } from '@hostpay/protocol';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import {
  ADMIN_TOKEN,
  adminHeaders,
  MASTER_KEY,
  Merchant,
  postgresAvailable,
  request,
  seedPostgresSchema,
  sleep,
  targetOf,
  TEST_DATABASE_URL,
  throughProxy,
  type Answer,
  type SeededSchema,
} from './world.js';

/**
 * SIGTERM while requests are in flight. Requests are made slow without touching the server: the
 * PostgreSQL proxy (tcp-proxy.ts; the shared database is never stopped or slowed for others)
 * holds every query for a while, and one token request sends its body slowly over a raw socket,
 * finishing only after the signal.
 */
const QUERY_DELAY_MS = 400;

/** Whether a new TCP connection to `port` is refused right now. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** An HTTP/1.1 request written by hand: the head and the first part of the body now, the rest on `finish()`. */
function slowRequest(
  port: number,
  head: string,
  body: string,
  firstBytes: number,
): { finish(): void; response: Promise<{ status: number; body: any }> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    socket.on('data', (d: Buffer) => (received += d.toString()));
    socket.on('error', reject);
    socket.on('end', () => {
      const [status, rest] = [
        /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1],
        received.slice(received.indexOf('\r\n\r\n') + 4),
      ];
      try {
        resolve({ status: Number(status), body: JSON.parse(rest) });
      } catch {
        reject(new Error(`unreadable response: ${received}`));
      }
    });
  });
  socket.write(`${head}\r\n\r\n${body.slice(0, firstBytes)}`);
  return { finish: () => socket.write(body.slice(firstBytes)), response };
}

describe.skipIf(!postgresAvailable)('SIGTERM under hostpay serve', () => {
  let seeded: SeededSchema;
  let proxy: TcpProxy;
  let server: ServerProcess;

  beforeAll(async () => {
    seeded = await seedPostgresSchema();
    proxy = await startTcpProxy(targetOf(TEST_DATABASE_URL, 5432));
    server = await startServerProcess({
      HOSTPAY_DATABASE_URL: throughProxy(TEST_DATABASE_URL, proxy),
      HOSTPAY_DATABASE_SCHEMA: seeded.schema,
      HOSTPAY_MASTER_KEY: MASTER_KEY,
      HOSTPAY_ADMIN_TOKEN: ADMIN_TOKEN,
      HOSTPAY_DATA_DIR: seeded.dataDir,
      HOSTPAY_LOG_LEVEL: 'info',
    });
  });

  afterAll(async () => {
    await server?.kill();
    await proxy?.close();
    await seeded?.remove();
  });

  it('drains in-flight requests (200), refuses new connections meanwhile, and exits 0', async () => {
    const port = Number(new URL(server.url).port);
    const merchant = new Merchant(server.url, seeded.demo);
    await merchant.login();
    expect((await merchant.get('/api/v1/cp/wallets')).status).toBe(200);

    proxy.delayMs = QUERY_DELAY_MS;
    const pending = new Set<string>();
    const track = <T>(name: string, p: Promise<T>): Promise<T> => {
      pending.add(name);
      return p.finally(() => pending.delete(name));
    };
    const started = performance.now();
    const inFlight: [string, Promise<Answer>][] = [
      ['fee preview 101', merchant.get('/api/v1/cp/psp/hosted-pay/fees-preview?amount=101&currency=USDT')],
      ['fee preview 102', merchant.get('/api/v1/cp/psp/hosted-pay/fees-preview?amount=102&currency=EUR')],
      [
        'admin merchant',
        request(`${server.url}/admin/v1/merchants/${seeded.demo.merchantId}`, { headers: adminHeaders }),
      ],
      [
        'admin wallets',
        request(`${server.url}/admin/v1/wallets?merchantId=${seeded.demo.merchantId}`, { headers: adminHeaders }),
      ],
      ['readyz', request(`${server.url}/readyz`)],
    ].map(([name, p]) => [name as string, track(name as string, p as Promise<Answer>)]);
    const tokenBody = '{"expiresIn":120}';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const slowToken = slowRequest(
      port,
      [
        'POST /api/v1/auth/token HTTP/1.1',
        `host: 127.0.0.1:${port}`,
        'content-type: application/json',
        `content-length: ${Buffer.byteLength(tokenBody)}`,
        `api-key: ${seeded.demo.apiKey}`,
        `timestamp: ${timestamp}`,
        `signature: ${sign(seeded.demo.apiSecret, timestamp, tokenBody)}`,
      ].join('\r\n'),
      tokenBody,
      5,
    );
    const tokenAnswer = track('slow token', slowToken.response);

    await sleep(100);
    expect(pending.size).toBe(6);
    server.child.kill('SIGTERM');
    const signalledAt = performance.now();
    const exited = server.exited.then((code) => ({ code, at: performance.now() }));

    // The listening socket closes at once, while the requests above are still running.
    let refusedAt: number | undefined;
    while (refusedAt === undefined && performance.now() - signalledAt < 2000) {
      if (await refused(port)) refusedAt = performance.now();
      else await sleep(10);
    }
    expect(refusedAt, 'new connections are refused after SIGTERM').toBeDefined();
    const stillRunning = pending.size;
    expect(stillRunning).toBeGreaterThanOrEqual(5);

    // The slow client finishes its body after the signal: its request is still served.
    await sleep(200);
    slowToken.finish();

    const answers = await Promise.all(inFlight.map(async ([name, p]) => [name, await p] as const));
    for (const [name, answer] of answers) expect(answer.status, `${name}: ${answer.text}`).toBe(200);
    const token = await tokenAnswer;
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body.result.expiresIn).toBe(120);
    const lastAnswerAt = performance.now();

    const { code, at } = await exited;
    expect(code).toBe(0);
    // Exits once drained: after the last answer, and before the 10 s shutdown timeout (which would
    // exit 1 with requests still open). Closing every feature's loops took 3.2 s in a loaded CI run.
    expect(at).toBeGreaterThanOrEqual(lastAnswerAt - 50);
    expect(at - lastAnswerAt).toBeLessThan(8000);
    const logs = server.logs();
    expect(logs.some((l) => l.msg === 'shutting down: draining in-flight requests')).toBe(true);
    expect(logs.filter((l) => l.level >= 50)).toEqual([]);
    const slowest = Math.max(...answers.map(([, a]) => a.ms));
    console.log(
      `[faults] SIGTERM: ${stillRunning} requests still running when new connections were refused (${(refusedAt! - signalledAt).toFixed(0)} ms after the signal); all ${answers.length + 1} answered 200 (slowest ${slowest.toFixed(0)} ms after ${(signalledAt - started).toFixed(0)} ms to the signal); exit 0 ${(at - signalledAt).toFixed(0)} ms after the signal`,
    );
  });
});
