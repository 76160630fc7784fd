import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Resolver } from '../../src/outbound/guard.js';
import { createServices, type Services } from '../../src/services.js';
import { dropPostgresSchema, openPostgresStore } from '../../src/store/postgres.js';
import { adminCaller, ALICE, resultOf, type AdminCall } from '../http-helpers/admin-fixture.js';
import { TEST_DATABASE_URL, type Dialect } from '../helpers.js';

export interface RatesEnv {
  services: Services;
  dataDir: string;
  app: FastifyInstance;
  admin: AdminCall;
  clock: { offsetMs: number };
  now(): number;
  /** Services over the same store, as another instance would run (same clock). */
  another(): Promise<Services>;
  /** PUT a source and return its view. */
  source(id: string, body: Record<string, unknown>): Promise<any>;
  /** GET /admin/v1/rates as a map of "BASE/QUOTE" to the rate's view. */
  rates(): Promise<Map<string, any>>;
  close(): Promise<void>;
}

/**
 * A sandbox server (loopback sources allowed) over a fresh store, the refresher not started (the
 * tests run refreshes by hand), the admin API on with alice's token, a movable clock.
 */
export async function ratesEnv(
  dialect: Dialect,
  /** `stillClock`: time stands still unless a test moves `clock.offsetMs` (ages exact to the second). */
  opts: { sandbox?: boolean; resolve?: Resolver; timeoutMs?: number; stillClock?: boolean } = {},
): Promise<RatesEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-rates-'));
  const clock = { offsetMs: 0 };
  const start = Date.now();
  const now = () => (opts.stillClock === true ? start : Date.now()) + clock.offsetMs;
  const schema = `hp_rates_${randomBytes(6).toString('hex')}`;
  const config = loadConfig(
    {},
    {
      dataDir,
      logLevel: 'silent',
      sandbox: opts.sandbox ?? true,
      adminTokens: `alice:${ALICE}`,
      ...(dialect === 'postgres' ? { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema } : {}),
    },
  );
  const options = {
    now,
    expirySweepMs: 0,
    rates: {
      refresher: { timeoutMs: opts.timeoutMs ?? 2000 },
      ...(opts.resolve === undefined ? {} : { resolve: opts.resolve }),
    },
  };
  const open = async (generate: boolean) =>
    createServices(config, {
      generateMasterKey: generate,
      ...options,
      ...(dialect === 'postgres' ? { store: await openPostgresStore(TEST_DATABASE_URL, { schema }) } : {}),
    });
  const services = await open(true);
  const app = await buildApp({
    config,
    services: services.merchant,
    admin: services.admin,
    features: services,
    now,
    logger: false,
  });
  await app.ready();
  const admin = adminCaller(() => app);
  const others: Services[] = [];
  return {
    services,
    dataDir,
    app,
    admin,
    clock,
    now,
    async another() {
      const s = await open(false);
      others.push(s);
      return s;
    },
    source: async (id, body) => resultOf(await admin('PUT', `/rate-sources/${id}`, { body })),
    async rates() {
      const list = resultOf<any[]>(await admin('GET', '/rates'));
      return new Map(list.map((r) => [`${r.base}/${r.quote}`, r]));
    },
    async close() {
      await app.close();
      for (const s of others) await s.close();
      await services.close();
      if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What a stand-in provider answers: status, body, and an optional delay. */
export interface Answer {
  status?: number;
  body: string;
  delayMs?: number;
  type?: string;
}

/**
 * A provider's stand-in on 127.0.0.1: `answer` decides each reply from the request (path and
 * query); every request is recorded. `port`: listen where an earlier stand-in was (a provider
 * coming back at its address); by default any free port.
 */
export async function standIn(
  answer: (url: URL) => Answer,
  opts: { port?: number } = {},
): Promise<{
  url: string;
  port: number;
  requests: URL[];
  set(fn: (url: URL) => Answer): void;
  close(): Promise<void>;
}> {
  let current = answer;
  const requests: URL[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    const a = current(url);
    const reply = () => {
      if (res.destroyed) return;
      res.writeHead(a.status ?? 200, { 'content-type': a.type ?? 'application/json' });
      res.end(a.body);
    };
    if (a.delayMs) setTimeout(reply, a.delayMs).unref();
    else reply();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    set: (fn) => {
      current = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The documented answer shapes, with chosen prices. */
export const shapes = {
  coinbase: (currency: string, rates: Record<string, string>) => JSON.stringify({ data: { currency, rates } }),
  kraken: (result: Record<string, string>) =>
    JSON.stringify({
      error: [],
      result: Object.fromEntries(
        Object.entries(result).map(([k, price]) => [
          k,
          {
            a: [price, '1', '1.000'],
            b: [price, '2', '2.000'],
            c: [price, '0.00500000'],
            v: ['100.1', '200.2'],
            p: [price, price],
            t: [10, 20],
            l: [price, price],
            h: [price, price],
            o: price,
          },
        ]),
      ),
    }),
  binance: (prices: Record<string, string>) =>
    JSON.stringify(Object.entries(prices).map(([symbol, price]) => ({ symbol, price }))),
  ecb: (day: string, rates: Record<string, string>) =>
    `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
\t\t<Cube time='${day}'>
${Object.entries(rates)
  .map(([c, r]) => `\t\t\t<Cube currency='${c}' rate='${r}'/>`)
  .join('\n')}
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>`,
};
