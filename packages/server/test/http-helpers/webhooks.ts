import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import type { HttpFixture, TestKey } from './fixture.js';
import { issueToken, signedHeaders } from './requests.js';
import type { Store } from '../../src/store/store.js';
import type { WebhookWorker } from '../../src/features/webhooks/worker.js';

/** A merchant call with the four headers (fresh token) and the JSON body signed as sent; any method. */
export async function merchantCall(
  fx: HttpFixture,
  key: TestKey,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const h: Record<string, string> = {
    ...signedHeaders(fx, key, { body: payload, target: { method, url } }),
    authorization: `Bearer ${await issueToken(fx, key)}`,
    ...headers,
  };
  if (payload !== '') h['content-type'] = 'application/json';
  return fx.app.inject({ method, url, headers: h, payload });
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1 (tests send traffic to loopback only). `answer` decides each
 * reply; it may hold the response (a slow endpoint) until `close`, which drops every socket.
 */
export class Receiver {
  readonly received: Received[] = [];
  answer: (req: Received, res: ServerResponse) => void = (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  readonly #server: Server;
  #waiters: (() => void)[] = [];

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = {
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        receiver.received.push(r);
        for (const w of receiver.#waiters.splice(0)) w();
        receiver.answer(r, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hooks`;
  }

  /** Resolves once `count` requests arrived, or rejects after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 5000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`receiver got ${this.received.length} of ${count} requests`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.received;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** Ticks the worker until nothing is due or being sent (tests drive workers by hand). */
export async function drain(worker: WebhookWorker, maxRounds = 100): Promise<void> {
  for (let i = 0; i < maxRounds; i++) {
    const claimed = await worker.tick();
    await worker.settled();
    if (claimed === 0 && worker.busy === 0) return;
  }
}

/**
 * A store for a worker that dies as a process killed with SIGKILL would: after `crash()` its
 * writes never commit, so it renews, releases and records nothing more, and its leases stay
 * until they expire. Reads still answer; a dead process's reads change nothing.
 */
export function crashableStore(store: Store): { store: Store; crash(): void } {
  let crashed = false;
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'writeTransaction' && crashed) return () => new Promise<never>(() => undefined);
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store: wrapped,
    crash: () => {
      crashed = true;
    },
  };
}
