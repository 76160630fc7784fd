import type { AmountMode } from './decimals.js';
import { readEnvelope } from './envelope.js';
import { toHostpayError, type HostpayError } from './errors.js';
import { resignOnReuse } from './resign.js';
import { isRetryable, sleep, type RetryDelay } from './retry.js';
import { signatureHeaders } from './signing.js';
import { TokenCache } from './token-cache.js';
import type { CallOptions, TimeResult, TokenResult } from './types.js';
import { PATHS } from './wire.js';

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  auth: 'none' | 'key' | 'bearer'; // none: public; key: the three API-key headers; bearer: and the token
  /** Extra headers, the same on every attempt (Idempotency-Key: retries must reuse it). */
  headers?: Record<string, string>;
  /** The whole success envelope instead of its `result` (lists carry `nextCursor` beside it). */
  envelope?: true;
  /** A file answer (reports): a 2xx that is not JSON comes back as the Response, its body unread. */
  stream?: true;
  /** The Accept header of a file answer (default: NDJSON or JSON, as reports take). */
  accept?: string;
}

export interface TransportConfig {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  bearerToken: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  amounts: AmountMode;
  tokenExpiresIn: number;
  retryDelay: RetryDelay;
  now: () => number;
  /** 2 unless the caller forced 1 (which the server refuses outside three deprecated routes). */
  signatureVersion: 1 | 2;
}

/** Signing, retries, clock correction and the token: everything between a method and fetch. */
export class Transport {
  /** Server clock minus local clock, learned from the server on TIMESTAMP_OUT_OF_WINDOW. */
  clockOffsetMs = 0;
  private readonly tokens: TokenCache | undefined;
  constructor(private readonly cfg: TransportConfig) {
    if (cfg.bearerToken === undefined) {
      const tokenSpec: RequestSpec = {
        method: 'POST',
        path: PATHS.token,
        body: { expiresIn: cfg.tokenExpiresIn },
        auth: 'key',
      };
      // One attempt with its own timeout: a caller's abort must not fail the others' shared wait.
      const issue = () => this.attempt(tokenSpec, AbortSignal.timeout(cfg.timeoutMs)) as Promise<TokenResult>;
      this.tokens = new TokenCache(issue, cfg.now);
    }
  }

  /** One call: attempts, retries and waits, all within the call's time budget. */
  async call(spec: RequestSpec, options: CallOptions): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.cfg.timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')),
      Math.min(timeoutMs, 2 ** 31 - 1), // setTimeout fires at once beyond this
    );
    const outer = options.signal;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    try {
      return await this.withRetries(spec, controller.signal, Date.now() + timeoutMs);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    }
  }

  private async withRetries(spec: RequestSpec, signal: AbortSignal, deadline: number): Promise<unknown> {
    let retries = 0;
    let clockFixed = false;
    let tokenRenewed = false;
    for (;;) {
      let token: string | undefined;
      try {
        if (spec.auth === 'bearer') token = this.cfg.bearerToken ?? (await this.tokens?.get(signal));
        return await this.attempt(spec, signal, token);
      } catch (thrown) {
        const error = toHostpayError(thrown, signal);
        if (error.code === 'TIMESTAMP_OUT_OF_WINDOW' && !clockFixed) {
          clockFixed = true;
          await this.learnClock(error, signal);
          continue;
        }
        const stale = error.code === 'TOKEN_EXPIRED' || error.code === 'INVALID_TOKEN';
        if (stale && token !== undefined && this.tokens && !tokenRenewed) {
          tokenRenewed = true;
          this.tokens.drop(token);
          continue;
        }
        if (retries >= this.cfg.maxRetries || !isRetryable(error)) throw error;
        const retryAfterMs = error.retryAfter === undefined ? undefined : error.retryAfter * 1000;
        const wait = Math.max(0, this.cfg.retryDelay({ attempt: retries, retryAfterMs, error }));
        if (Date.now() + wait >= deadline) throw error; // waiting would only end in TIMEOUT
        retries++;
        await sleep(wait, signal).catch((e: unknown) => {
          throw toHostpayError(e, signal);
        });
      }
    }
  }

  /**
   * One HTTP exchange, with a fresh timestamp and signature; a signed one refused as
   * SIGNATURE_REUSED is signed again in the next second, once (resign.ts).
   */
  private async attempt(spec: RequestSpec, signal: AbortSignal, token?: string): Promise<unknown> {
    const body = spec.body === undefined ? '' : JSON.stringify(spec.body);
    const accept =
      spec.stream === true ? (spec.accept ?? 'application/x-ndjson, application/json') : 'application/json';
    const url = this.url(spec);
    const now = () => this.cfg.now() + this.clockOffsetMs;
    const send = async (nowMs: number): Promise<Response> => {
      const headers: Record<string, string> = { ...spec.headers, accept };
      if (body) headers['content-type'] = 'application/json';
      if (spec.auth !== 'none') {
        const timestamp = String(Math.floor(nowMs / 1000));
        headers['api-key'] = this.cfg.apiKey;
        headers.timestamp = timestamp;
        const version = this.cfg.signatureVersion;
        Object.assign(headers, await signatureHeaders(this.cfg.apiSecret, version, timestamp, spec.method, url, body));
      }
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      return this.cfg.fetch(url, { method: spec.method, headers, body: body || null, signal });
    };
    try {
      const res = spec.auth === 'none' ? await send(now()) : await resignOnReuse(send, { now, signal });
      if (spec.stream === true && res.ok && !(res.headers.get('content-type') ?? '').startsWith('application/json'))
        return res;
      return readEnvelope(res, await res.text(), this.cfg.amounts, spec.envelope === true);
    } catch (thrown) {
      throw toHostpayError(thrown, signal);
    }
  }

  /** Sets the clock offset from the error's serverTime, else from GET /api/v1/time. */
  private async learnClock(error: HostpayError, signal: AbortSignal): Promise<void> {
    let serverSeconds = Number(error.details?.serverTime);
    if (!(serverSeconds > 0)) {
      const time = (await this.attempt({ method: 'GET', path: PATHS.time, auth: 'none' }, signal)) as TimeResult;
      serverSeconds = time.unixTime;
    }
    // The server floors to whole seconds; aim at the middle of that second.
    this.clockOffsetMs = serverSeconds * 1000 + 500 - this.cfg.now();
  }

  private url(spec: RequestSpec): string {
    const pairs =
      spec.query === undefined
        ? []
        : Object.entries(spec.query).filter((e): e is [string, string] => e[1] !== undefined);
    return pairs.length === 0
      ? this.cfg.baseUrl + spec.path
      : `${this.cfg.baseUrl}${spec.path}?${new URLSearchParams(pairs)}`;
  }
}
