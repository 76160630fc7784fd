import type { LookupAddress } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import { addressKind } from './addresses.js';
import { GuardedAgents } from './agents.js';
import { bareHost } from './guard.js';

export interface GuardedFetchOptions {
  /** The address check every connection goes through (a name when connecting, an IP literal before the request). */
  check: (host: string) => Promise<LookupAddress[]>;
  maxSockets: number;
  /** Answers past this many bytes fail with `<what> larger than N MB` (or `N bytes`). */
  maxAnswerBytes: number;
  /** What the answers are, for that error (`RPC answer`). */
  what: string;
}

const MB = 1024 * 1024;
/** `2 MB` for a whole number of megabytes (the defaults); bytes otherwise, never `0.0009 MB`. */
const sizeText = (bytes: number) => (bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes} bytes`);

/**
 * A `fetch` (for viem's http transport and the rate sources) whose every connection goes
 * through the address check: the agents' DNS lookup checks what a name resolves to when
 * connecting (DNS rebinding included), and an IP literal is checked before the request. Answers
 * are capped.
 */
export function guardedFetch(opts: GuardedFetchOptions) {
  const agents = new GuardedAgents(opts.check, opts.maxSockets);
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const host = bareHost(url);
    if (addressKind(host) !== undefined) await opts.check(host);
    const body = typeof init?.body === 'string' ? Buffer.from(init.body, 'utf8') : Buffer.alloc(0);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    headers['content-length'] = String(body.length);
    const signal = init?.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = agents.request(url, { method: init?.method ?? 'POST', headers, ...(signal ? { signal } : {}) });
      req.on('error', reject);
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > opts.maxAnswerBytes)
            res.destroy(new Error(`${opts.what} larger than ${sizeText(opts.maxAnswerBytes)}`));
          else chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500, headers: h }));
        });
      });
      req.end(body);
    });
  };
  return { fetchFn, close: () => agents.destroy() };
}
