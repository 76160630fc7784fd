import type { LookupAddress } from 'node:dns';
import type { ClientRequest, Agent as HttpAgent, RequestOptions } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { lookupThrough } from './guard.js';

// Not `import … from 'node:http'`: Node builds an ES module's view of node:http by reading every
// export, and one of them (WebSocket) loads undici, ~27 ms and a few MB of every start
// (docs/benchmarks.md, "Start-up and memory"). getBuiltinModule reads only what is used.
const http = process.getBuiltinModule('node:http');
const https = process.getBuiltinModule('node:https');

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
    this.#http = new http.Agent(common);
    this.#https = new https.Agent(common);
  }

  /** Starts a request to `url` through the agent of its scheme. */
  request(url: URL, options: RequestOptions): ClientRequest {
    const request = url.protocol === 'https:' ? https.request : http.request;
    return request(url, { ...options, agent: url.protocol === 'https:' ? this.#https : this.#http });
  }

  destroy(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}
