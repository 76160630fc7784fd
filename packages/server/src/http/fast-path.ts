import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Scope } from '@hostpay/protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RequestFacts } from '../auth/key-decision.js';
import { keyRateLimited } from '../auth/refusals.js';
import type { RateLimitResult } from '../auth/rate-limit.js';
import type { V1Notice } from '../auth/signature-deprecation.js';
import type { KeyPrincipal as Principal } from '../auth/principal.js';
import type { RequestMetrics } from '../observability/request-metrics.js';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.js';
import { errorBody, JSON_UTF8 } from './envelope.js';
import { genReqId } from './request-id.js';
import { logCompleted } from './logging.js';

/**
 * The fast path for cached merchant reads (docs/benchmarks.md). A busy client
 * repeats the same signed GET many times a second; when such a request passes every check and its
 * answer is cached, Fastify's lifecycle (routing, a child logger, request and reply objects, the
 * hook runners) costs more CPU than everything hostpay itself does for it. Such requests are
 * answered here, before Fastify, with the same checks, the same bytes on the wire, the same count
 * in the request metrics and the same access line.
 *
 * Only the plain success is answered here: the decision is taken without side effects (nothing
 * counted, cached or touched), and anything else (a first request, an error of any kind, a rate
 * limit reached in this process, a body, a compressed answer, a query not in its simplest form,
 * a proxy in front, a shutdown under way) goes to Fastify unchanged, which then does all of it as
 * before. `request-path.test.ts` and `fast-path.test.ts` compare both paths byte for byte.
 */
export interface FastRoute {
  /** The path as the client sends it, without query. */
  path: string;
  /** The route's template as registered in Fastify (the metrics label). */
  route: string;
  /** The scope the route requires (its `config.scope`). */
  scope: Scope;
  /** The route accepts version-1 signatures (its `config.signatureV1`). */
  signatureV1: boolean;
  /**
   * The answer text for this principal and query string ('' when the target has none): the text
   * when cached, a promise while it loads, or undefined to leave the request to Fastify (a query
   * in any but its simplest form, another merchant, an error). No side effects besides the load.
   */
  answer(query: string, principal: Principal): string | Promise<string> | undefined;
}

export interface FastPathDeps {
  routes: readonly FastRoute[];
  auth: {
    repeatedNow(headers: IncomingMessage['headers'], facts: RequestFacts, nowMs: number): Principal | undefined;
    admitNow(principal: Principal): RateLimitResult | Promise<RateLimitResult> | undefined;
    /** What an answer to a version-1 request adds (the hook's deprecation headers) and counts. */
    v1Notice?: V1Notice | undefined;
  };
  requests: RequestMetrics;
  now: () => number;
  /** The app's logger (absent when logging is off). */
  log: FastifyBaseLogger | undefined;
}

/** Bytes of encoded answers the fast path keeps (see encodedBodies). */
export const ENCODED_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The UTF-8 bytes of answer texts, keyed by the text: a cached answer is the same string object
 * on every request (its hash kept by V8), so a hit is one Map lookup instead of encoding the text
 * again for every answer. A new text (a write changed the answer) is a new entry; when the
 * entries pass `maxBytes` they are all dropped and the memo fills again with what is asked.
 */
export function encodedBodies(maxBytes: number): (text: string) => Buffer {
  const memo = new Map<string, Buffer>();
  let bytes = 0;
  return (text) => {
    let buf = memo.get(text);
    if (buf === undefined) {
      buf = Buffer.from(text, 'utf8');
      if (bytes + buf.length > maxBytes) {
        memo.clear();
        bytes = 0;
      }
      if (buf.length <= maxBytes) {
        memo.set(text, buf);
        bytes += buf.length;
      }
    }
    return buf;
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const answeredBy = new WeakMap<FastifyInstance, { answered: number }>();

/** How many requests the app's fast path answered (tests tell the two paths apart with it). */
export function fastPathAnswers(app: FastifyInstance): number {
  return answeredBy.get(app)?.answered ?? 0;
}

/**
 * Puts the fast path in front of Fastify's request handler on `app.server`. `app.inject` does not
 * go through it (it calls Fastify's handler), so tests of the fast path listen on a socket.
 */
export function installFastPath(app: FastifyInstance, deps: FastPathDeps): void {
  const server = app.server as Server;
  const [fastify, ...others] = server.listeners('request') as Handler[];
  if (fastify === undefined || others.length > 0)
    throw new Error("fast path: expected exactly one request listener (Fastify's)");
  let closing = false;
  // During the drain Fastify answers with `Connection: close`: from then on it answers everything.
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  const stats = { answered: 0 };
  answeredBy.set(app, stats);
  const fast = fastPath(deps, fastify, stats);
  server.removeListener('request', fastify);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (closing || !fast(req, res)) fastify(req, res);
  });
}

/** The fast path itself: true when it took the request (answered, or answering once a load settles). */
export function fastPath(
  deps: FastPathDeps,
  fallback: Handler,
  stats = { answered: 0 },
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const routes = new Map(deps.routes.map((r) => [r.path, r]));
  const { auth, requests, now, log } = deps;
  const bodyBytes = encodedBodies(ENCODED_BODY_BYTES);

  /**
   * Counts the request and answers it (or, with a shared limiter, once counted); false, with
   * nothing done, over the in-process rate limit or when compression may apply.
   */
  function send(
    req: IncomingMessage,
    res: ServerResponse,
    route: FastRoute,
    principal: Principal,
    body: string,
    startedAt: number,
  ): boolean {
    // The compression memo's case (http/compression.ts): Fastify's onSend hook decides it.
    if (body.length >= COMPRESSION_THRESHOLD_BYTES && req.headers['accept-encoding'] !== undefined) return false;
    const rate = auth.admitNow(principal);
    if (rate === undefined) return false;
    // Signed with version 1 (no `signature-version`, or 1): the answer carries the deprecation.
    const version = req.headers['signature-version'];
    const v1Key = auth.v1Notice !== undefined && version !== '2' ? principal.key.id : undefined;
    if (rate instanceof Promise) {
      rate.then(
        (r) => answer(req, res, route, body, r, startedAt, v1Key),
        () => fallback(req, res), // the limiter failed: the hook tries again and answers its error
      );
    } else {
      // Decided and counted now; written with the others decided in this turn of the event loop
      // (see flush).
      batch.push({ req, res, route, body, rate, startedAt, v1Key });
      if (batch.length === 1) setImmediate(flush);
    }
    return true;
  }

  /**
   * Writes the answers decided since the last flush, once the event loop has read every request
   * that arrived together (setImmediate: the same turn, after the poll phase). Answering each
   * inside the parser's callback woke the client at every write, and on a busy machine the
   * process was switched out between requests: the same answers written in a batch measured about
   * a third less server CPU per request (docs/benchmarks.md). The delay is that of reading the
   * other requests of the turn; it is inside the latency the metrics and access line report.
   */
  const batch: {
    req: IncomingMessage;
    res: ServerResponse;
    route: FastRoute;
    body: string;
    rate: RateLimitResult;
    startedAt: number;
    v1Key: string | undefined;
  }[] = [];
  function flush(): void {
    for (let i = 0; i < batch.length; i++) {
      const b = batch[i]!;
      try {
        answer(b.req, b.res, b.route, b.body, b.rate, b.startedAt, b.v1Key);
      } catch (err) {
        // Not expected (the values are ours): one broken answer must not hold up the others.
        log?.error({ err, url: b.req.url }, 'fast path: answer failed');
        b.res.destroy();
      }
    }
    batch.length = 0;
  }

  /** Writes the answer (or the key's 429), counts it and writes the access line. */
  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    route: FastRoute,
    body: string,
    rate: RateLimitResult,
    startedAt: number,
    /** The key of a version-1 request (deprecation headers, counted), else undefined. */
    v1Key: string | undefined,
  ): void {
    const id = genReqId(req);
    let status = 200;
    const notice = v1Key === undefined ? undefined : auth.v1Notice;
    if (notice !== undefined) notice.count(v1Key!);
    if (rate.allowed && notice !== undefined) {
      const bytes = bodyBytes(body);
      // As below, with the hook's deprecation headers where it writes them (after cache-control).
      res.writeHead(200, {
        'x-request-id': id,
        'cache-control': 'no-store',
        deprecation: notice.headers.deprecation,
        sunset: notice.headers.sunset,
        link: notice.headers.link,
        'ratelimit-limit': rate.limit,
        'ratelimit-remaining': rate.remaining,
        'ratelimit-reset': rate.resetSeconds,
        'content-type': JSON_UTF8,
        'content-length': bytes.length,
      });
      res.end(bytes);
    } else if (rate.allowed) {
      const bytes = bodyBytes(body);
      // The headers Fastify writes for this answer, in its order (request id from the onRequest
      // hook, cache-control and RateLimit from authentication, then type and length). A literal
      // object of one shape: a computed key made V8 build each one in its slow mode.
      res.writeHead(200, {
        'x-request-id': id,
        'cache-control': 'no-store',
        'ratelimit-limit': rate.limit,
        'ratelimit-remaining': rate.remaining,
        'ratelimit-reset': rate.resetSeconds,
        'content-type': JSON_UTF8,
        'content-length': bytes.length,
      });
      res.end(bytes);
    } else {
      // Over a shared limit, already counted: the hook's 429 as the error handler writes it.
      const err = keyRateLimited(rate);
      const text = JSON.stringify(errorBody(err, id));
      status = err.status;
      res.writeHead(status, {
        'x-request-id': id,
        'cache-control': 'no-store',
        ...(notice === undefined
          ? {}
          : { deprecation: notice.headers.deprecation, sunset: notice.headers.sunset, link: notice.headers.link }),
        'ratelimit-limit': rate.limit,
        'ratelimit-remaining': rate.remaining,
        'ratelimit-reset': rate.resetSeconds,
        ...err.headers,
        'content-type': JSON_UTF8,
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    }
    stats.answered++;
    const elapsedMs = performance.now() - startedAt;
    requests.series(route.route, 'GET', status).observe(elapsedMs / 1000);
    // The access line of logging.ts, with the request id Fastify's child logger would have bound.
    if (log !== undefined) logCompleted(log, 'GET', req.url, status, elapsedMs, { reqId: id });
  }

  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url!;
    const q = url.indexOf('?');
    const route = routes.get(q === -1 ? url : url.slice(0, q));
    if (route === undefined) return false;
    const headers = req.headers;
    // No Host (Fastify's onRequest hook refuses it on HTTP/1.1) or a body: Fastify's way.
    if (
      headers.host === undefined ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined
    )
      return false;
    const ip = req.socket.remoteAddress;
    if (ip === undefined) return false;
    const startedAt = performance.now();
    const principal = auth.repeatedNow(
      headers,
      { method: 'GET', url, rawBody: '', ip, scope: route.scope, signatureV1: route.signatureV1 },
      now(),
    );
    if (principal === undefined) return false;
    let body: string | Promise<string> | undefined;
    try {
      body = route.answer(q === -1 ? '' : url.slice(q + 1), principal);
    } catch {
      return false;
    }
    if (body === undefined) return false;
    if (typeof body === 'string') return send(req, res, route, principal, body, startedAt);
    // Not cached: answered once loaded. Nothing has been counted yet, so a failed load (or a
    // limit reached meanwhile) still goes to Fastify, which loads again and answers its error.
    body.then(
      (text) => {
        if (!send(req, res, route, principal, text, startedAt)) fallback(req, res);
      },
      () => fallback(req, res),
    );
    return true;
  };
}
