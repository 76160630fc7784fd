import type { IncomingMessage } from 'node:http';
import { GuardedAgents } from '../../outbound/agents.js';
import { bareHost, checkedAddresses, RefusedAddress, type GuardOptions } from '../../outbound/guard.js';

/** What one HTTP attempt gave: a status, or a network error, with its latency and answer head. */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  /** The first 2 KB of the answer, as text. */
  responseBody: string | null;
}

export const RESPONSE_KEPT_BYTES = 2048;
// Past this much of an answer the socket is dropped rather than drained.
const DRAIN_LIMIT = 64 * 1024;

/**
 * Sends webhook requests through agents whose DNS lookup is the SSRF guard (outbound/), so every
 * new connection is checked; sockets are kept alive per origin. Redirects are answers like any
 * other (never followed); the whole exchange has one deadline.
 */
export class WebhookSender {
  readonly #guard: GuardOptions;
  readonly #agents: GuardedAgents;

  constructor(guard: GuardOptions, opts: { maxSockets?: number } = {}) {
    this.#guard = guard;
    this.#agents = new GuardedAgents((host) => checkedAddresses(host, guard), opts.maxSockets ?? 16);
  }

  async send(target: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(target);
      // Node connects to an IP literal without a lookup: check it here.
      const host = bareHost(url);
      if (/^[\d.]+$|:/.test(host)) await checkedAddresses(host, this.#guard);
      if (url.protocol === 'http:' && !this.#guard.sandbox)
        throw new RefusedAddress('plain http is allowed only on a sandbox server');
    } catch (err) {
      return {
        statusCode: null,
        error: err instanceof RefusedAddress ? `refused: ${err.reason}` : 'invalid URL',
        latencyMs: elapsed(),
        responseBody: null,
      };
    }
    const payload = Buffer.from(body, 'utf8');
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (r: Omit<AttemptResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...r, latencyMs: elapsed() });
      };
      const req = this.#agents.request(url, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'hostpay-webhooks/1',
        },
      });
      const timer = setTimeout(() => {
        finish({ statusCode: null, error: `timeout after ${timeoutMs} ms`, responseBody: null });
        req.destroy();
      }, timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        const reason =
          err.code === 'EREFUSEDADDRESS' ? `refused: ${err.message}` : `${err.code ?? 'network error'}: ${err.message}`;
        finish({ statusCode: null, error: reason.slice(0, 500), responseBody: null });
      });
      req.on('response', (res: IncomingMessage) => {
        const kept: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_KEPT_BYTES) kept.push(chunk.subarray(0, RESPONSE_KEPT_BYTES - size));
          size += chunk.length;
          if (size > DRAIN_LIMIT) res.destroy();
        });
        const done = () => {
          // PostgreSQL's text holds no NUL: an endpoint answering one must not make its attempt unrecordable.
          const text = Buffer.concat(kept).toString('utf8').replaceAll('\u0000', '\ufffd');
          finish({ statusCode: res.statusCode ?? null, error: null, responseBody: text });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
      req.end(payload);
    });
  }

  close(): void {
    this.#agents.destroy();
  }
}
