import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_STREAM_KEEPALIVE_MS, WEBHOOK_PATHS } from '@hostpay/protocol';
import { DEFAULT_IDLE_SECONDS } from '../src/commands/listen.js';
import { run } from '../src/program.js';
import { memoryIo } from './helpers.js';

/**
 * `hostpay listen --idle-timeout`: a stream that goes quiet without closing (a half-open
 * connection, a NAT that dropped the flow) is given up and resumed; one that keeps sending its
 * keep-alive comments is left alone. The server here is a stand-in on 127.0.0.1 that only knows
 * the stream's wire format, so it can go silent in ways the real server never does.
 */
interface StreamHit {
  afterSequence: string | null;
  at: number;
  /** When the connection went (the CLI gave it up: these streams never end by themselves). */
  closedAt?: number;
}
type Script = (res: ServerResponse, nth: number) => void;

const opening = (after: number) => `retry: 1000\n: events after #${after}\n\n`;
const event = (sequence: number) => `id: ${sequence}\nevent: test.ping\ndata: {"id":"evt_${sequence}"}\n\n`;
const sseHeaders = { 'content-type': 'text/event-stream; charset=utf-8' };

let servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  servers = [];
});

/** Serves the event stream by `script` (per connection, numbered from 1) and takes forwarded events at /hooks. */
async function streamServer(script: Script): Promise<{ url: string; streams: StreamHit[] }> {
  const streams: StreamHit[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && path.pathname === '/hooks') {
      req.resume();
      res.writeHead(204).end();
      return;
    }
    if (path.pathname !== WEBHOOK_PATHS.eventStream) {
      res.writeHead(404).end();
      return;
    }
    const hit: StreamHit = { afterSequence: path.searchParams.get('afterSequence'), at: Date.now() };
    streams.push(hit);
    res.on('close', () => (hit.closedAt = Date.now()));
    script(res, streams.length);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, streams };
}

const listen = (url: string, ...args: string[]) => {
  const io = memoryIo();
  const code = run(
    [
      'listen',
      '--forward-to',
      `${url}/hooks`,
      '--base-url',
      url,
      '--api-key',
      'hpk_test',
      '--api-secret',
      'secret',
      '--token',
      'tok',
      ...args,
    ],
    io,
  );
  return { io, code };
};

/** The command's exit code, or a failure naming what did not happen (rather than the test's own timeout). */
async function within(code: Promise<number>, ms: number, what: string): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`listen did not ${what} within ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([code, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('hostpay listen on a silent stream', () => {
  it('gives up a stream that goes silent without closing, after --idle-timeout, and resumes after its last event', async () => {
    /** When the first connection last sent anything. */
    let lastWrite = 0;
    const { url, streams } = await streamServer((res, nth) => {
      res.writeHead(200, sseHeaders);
      // The first connection says one event and then nothing, never closing; the next one the rest.
      res.write(nth === 1 ? opening(7) + event(8) : opening(8) + event(9));
      if (nth === 1) lastWrite = Date.now();
    });
    const { io, code } = listen(url, '--idle-timeout', '1', '--max-events', '2');
    expect(await within(code, 5000, 'reconnect'), io.err).toBe(0);
    expect(io.out).toMatch(/evt_8 +-> HTTP 204\n.*evt_9 +-> HTTP 204\n/);
    expect(io.err).toBe('event stream interrupted (no data for 1 s); reconnecting\n');
    expect(streams.map((s) => s.afterSequence)).toEqual([null, '8']);
    const [first, second] = streams as [StreamHit, StreamHit];
    // Noticed after the bound (not early), and well within the bound plus a margin.
    const noticed = (first.closedAt ?? Number.POSITIVE_INFINITY) - lastWrite;
    expect(noticed).toBeGreaterThanOrEqual(900);
    expect(noticed).toBeLessThan(2000);
    // Then the usual reconnection, after its pause.
    expect(second.at - (first.closedAt ?? 0)).toBeGreaterThanOrEqual(900);
    // And the stream it stopped on (--max-events) is closed, not left to the server.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(second.closedAt).toBeDefined();
  });

  it('keeps a stream whose keep-alive comments come more often than --idle-timeout', async () => {
    const { url, streams } = await streamServer((res, nth) => {
      res.writeHead(200, sseHeaders);
      res.write(opening(7));
      if (nth > 1) return void res.write(event(8)); // a reconnection (the failure): end the command at once
      const keepalive = setInterval(() => res.write(': keep-alive\n\n'), 250);
      // Quiet but for comments for over twice the bound, then the event that ends the command.
      const done = setTimeout(() => {
        clearInterval(keepalive);
        res.write(event(8));
      }, 2500);
      res.on('close', () => {
        clearInterval(keepalive);
        clearTimeout(done);
      });
    });
    const { io, code } = listen(url, '--idle-timeout', '1', '--max-events', '1');
    expect(await within(code, 5000, 'forward the event'), io.err).toBe(0);
    expect(io.err).toBe('');
    expect(streams).toHaveLength(1);
    expect(io.out).toMatch(/evt_8 +-> HTTP 204/);
  });

  it.each([
    ['sends its headers and then nothing', (res: ServerResponse) => res.writeHead(200, sseHeaders).flushHeaders()],
    ['never answers', () => undefined],
  ])('exits with "no data" when the first stream %s', async (_, silent) => {
    const { url, streams } = await streamServer(silent);
    const started = Date.now();
    const { io, code } = listen(url, '--idle-timeout', '1');
    expect(await within(code, 4000, 'exit'), io.out).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(io.err).toMatch(/^hostpay: UNAVAILABLE: cannot reach http:\/\/127\.0\.0\.1:\d+: no data for 1 s;/);
    expect(io.out).not.toContain('Ready');
    expect(streams).toHaveLength(1);
    // The CLI closed the connection it gave up (nothing left for the server to time out).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(streams[0]?.closedAt).toBeDefined();
  });
});

describe('hostpay listen --idle-timeout', () => {
  it("defaults to several of the server's keep-alive intervals, and says so", async () => {
    expect(DEFAULT_IDLE_SECONDS * 1000).toBeGreaterThanOrEqual(2 * EVENT_STREAM_KEEPALIVE_MS);
    const io = memoryIo();
    expect(await run(['listen', '--help'], io)).toBe(0);
    const help = io.out.replace(/\s+/g, ' ');
    expect(help).toContain(`keep-alive every ${EVENT_STREAM_KEEPALIVE_MS / 1000} s`);
    expect(help).toMatch(new RegExp(`--idle-timeout <seconds> .*\\(default ${DEFAULT_IDLE_SECONDS}\\)`));
  });
});
