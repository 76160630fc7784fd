import type { LookupAddress } from 'node:dns';
import { type ClientRequest, Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { lookupThrough } from './guard.js';

/**
 * Keep-alive http and https agents whose DNS lookup is an address check (guard.ts): Node calls it
 * for every new connection to a name and connects only to what it answers, so a name that
 * resolves (or rebinds) to a refused address is never connected to. IP literals skip the lookup:
 * callers check them before the request.
 */
export class GuardedAgents {
  readonly #http: HttpAgent;
  readonly #https: HttpsAgent;

  constructor(check: (host: string) => Promise<LookupAddress[]>, maxSockets: number) {
    const common = { keepAlive: true, maxSockets, lookup: lookupThrough(check) as never };
    this.#http = new HttpAgent(common);
    this.#https = new HttpsAgent(common);
  }

  /** Starts a request to `url` through the agent of its scheme. */
  request(url: URL, options: RequestOptions): ClientRequest {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return request(url, { ...options, agent: url.protocol === 'https:' ? this.#https : this.#http });
  }

  destroy(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}
