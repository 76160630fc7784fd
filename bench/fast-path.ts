/**
 * The fast path's own cost, in-process (no sockets): `npx tsx bench/fast-path.ts [--rounds 7]`.
 * The app's request listener is called with a stand-in request (the headers a signed repeat
 * carries) and a response whose writeHead/end do nothing, so the figure is hostpay's JavaScript
 * per cached GET (authentication, rate limit, answer lookup, headers, metrics), without Node's
 * HTTP parser and the socket write that every server, bare or not, pays. Medians of the rounds.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PATHS, sign, unixTimestamp } from '@hostpay/protocol';
import { loadConfig, seedDemo } from '../packages/server/src/index.js';
import { createServer } from '../packages/server/src/app-exports.js';
import { fastPathAnswers } from '../packages/server/src/http/fast-path.js';

const { values: opts } = parseArgs({
  options: { rounds: { type: 'string', default: '7' }, calls: { type: 'string', default: '199936' } },
});
const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-fastpath-'));
const config = loadConfig({
  HOSTPAY_DATA_DIR: dataDir,
  HOSTPAY_MASTER_KEY: randomBytes(32).toString('base64'),
  HOSTPAY_LOG_LEVEL: 'warn',
});
const server = await createServer(config, { webhookWorker: false, evmWatcher: false });
const { app, services } = server;
await app.ready();
const demo = await seedDemo(services, dataDir);
const key = await services.admin.createApiKey(
  demo.merchantId,
  { rateLimitPerMinute: 1_000_000_000, label: 'bench' },
  { operator: 'bench' },
);
const signed = (body = '') => {
  const timestamp = unixTimestamp();
  return { 'api-key': key.apiKey, timestamp, signature: sign(key.apiSecret, timestamp, body) };
};
const tokenBody = JSON.stringify({ expiresIn: 3600 });
const tokenRes = await app.inject({
  method: 'POST',
  url: PATHS.token,
  headers: { ...signed(tokenBody), 'content-type': 'application/json' },
  payload: tokenBody,
});
const token = (tokenRes.json() as { result: { accessToken: string } }).result.accessToken;

const listener = app.server.listeners('request')[0] as (req: IncomingMessage, res: ServerResponse) => void;
const res = { writeHead: () => res, end: () => res } as unknown as ServerResponse;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// Sent 64 at a time: rounded up to a multiple of 64, so every request sent is counted.
const calls = Math.ceil(Number(opts.calls) / 64) * 64;

for (const [name, url] of [
  ['wallet list', PATHS.wallets],
  ['fee preview', `${PATHS.feesPreview}?amount=100&currency=USDT`],
] as const) {
  const results: number[] = [];
  for (let round = 0; round < Number(opts.rounds); round++) {
    // Fresh credentials each round (a timestamp is good for 60 s); the first request verifies them.
    const headers = { host: '127.0.0.1', ...signed(), authorization: `Bearer ${token}`, 'user-agent': 'bench' };
    const first = await app.inject({ method: 'GET', url, headers });
    if (first.statusCode !== 200) throw new Error(`${url}: ${first.statusCode} ${first.body}`);
    const req = { method: 'GET', url, headers, socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
    const before = fastPathAnswers(app);
    const start = performance.now();
    // 64 requests a turn, as from 64 connections: the answers are written in a batch once the
    // event loop turns (http/fast-path.ts: flush).
    for (let i = 0; i < calls; i += 64) {
      for (let j = 0; j < 64; j++) listener(req, res);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const us = ((performance.now() - start) * 1000) / calls;
    if (fastPathAnswers(app) - before !== calls)
      throw new Error(`${url}: the fast path answered ${fastPathAnswers(app) - before} of ${calls}`);
    results.push(us);
  }
  console.log(
    `${name.padEnd(12)} ${median(results).toFixed(2)} µs per request on the fast path (rounds: ${results.map((r) => r.toFixed(2)).join(' ')})`,
  );
}
await server.close();
rmSync(dataDir, { recursive: true, force: true });
