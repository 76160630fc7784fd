import { canonicalTarget } from '@hostpay/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JSON_UTF8 } from './envelope.js';
import type { AdminIdempotency } from './idempotency.js';

/**
 * `Idempotency-Key` on admin writes, as hooks around the handlers: after validation the key is
 * claimed (or the stored answer is replayed, with `Idempotent-Replayed: true`); when the answer
 * is sent it is stored if it is a success or a 4xx business answer, and forgotten if it is a 5xx,
 * so a retry after a server fault runs again. The header's format is checked by the route schema.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request holds until its answer is stored. */
    idempotencyClaim: { operator: string; key: string } | null;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const REPLAYED_HEADER = 'idempotent-replayed';

const storable = (status: number) => (status >= 200 && status < 300) || (status >= 400 && status < 500);

/**
 * `owner`: whose key space an Idempotency-Key lives in — the operator token's name on the admin
 * API, the merchant on merchant routes (two merchants may use the same key for different things).
 */
export function installIdempotency(
  app: FastifyInstance,
  service: AdminIdempotency,
  owner: (req: FastifyRequest) => string,
  /**
   * A check of writes that must come after the stored answer is replayed (merchant routes: the
   * single-use signature, auth/single-use.ts). When it refuses, the request's claim is released.
   */
  guard?: (req: FastifyRequest) => Promise<void>,
): void {
  app.decorateRequest('idempotencyClaim', null);

  app.addHook('preHandler', async (req, reply) => {
    const key = req.headers['idempotency-key'];
    if (!WRITES.has(req.method)) return;
    if (typeof key !== 'string') return guard?.(req);
    const operator = owner(req);
    // The parsed body re-serialised: the same JSON with other whitespace is the same request.
    // Canonical: the same request with its JSON keys or query parameters in another order is the same request.
    const claim = await service.begin(operator, key, {
      method: req.method,
      url: canonicalTarget(req.url),
      body: canonicalJson(req.body ?? {}),
    });
    if (claim.kind === 'replay') {
      return reply.code(claim.status).header(REPLAYED_HEADER, 'true').type(JSON_UTF8).send(claim.body);
    }
    req.idempotencyClaim = { operator, key };
    if (guard === undefined) return;
    try {
      await guard(req);
    } catch (err) {
      // Refused before it ran: the key stays free for the request it belongs to.
      req.idempotencyClaim = null;
      await service.release(operator, key).catch(() => undefined);
      throw err;
    }
  });

  // Callback hooks, not async ones: nearly every request holds no claim, and an async hook costs
  // each of them a promise and a microtask turn in Fastify's hook runner.
  app.addHook('onSend', (req, reply, payload, done) => {
    const claim = req.idempotencyClaim;
    if (claim === null) {
      done(null, payload);
      return;
    }
    req.idempotencyClaim = null;
    // `record` never rejects.
    void record(req, claim, reply.statusCode, payload).then(() => handOn(done, () => done(null, payload)));
  });

  async function record(
    req: FastifyRequest,
    claim: { operator: string; key: string },
    status: number,
    payload: unknown,
  ): Promise<void> {
    const keep = storable(status) && typeof payload === 'string';
    try {
      if (keep) await service.complete(claim.operator, claim.key, status, payload);
      else await service.release(claim.operator, claim.key);
    } catch (err) {
      // The answer still goes out; a retry with this key then runs again (the claim is let go once).
      req.log.error({ err }, 'could not record the answer of an idempotent request');
      if (keep) await service.release(claim.operator, claim.key).catch(() => undefined);
    }
  }

  // A request that ended without sending (should not happen) must not hold its key forever.
  app.addHook('onResponse', (req, _reply, done) => {
    const claim = req.idempotencyClaim;
    if (claim === null) {
      done();
      return;
    }
    req.idempotencyClaim = null;
    void service
      .release(claim.operator, claim.key)
      .catch(() => undefined)
      .then(() => handOn(done, () => done()));
  });
}

/**
 * Goes on from a callback hook, late (from a promise), as Fastify's runner does for a promise
 * hook: what `done` runs next (writing the answer) may throw, and that is passed back as the
 * hook's error, never left as an unhandled rejection.
 */
function handOn(done: (err: Error) => void, next: () => void): void {
  try {
    next();
  } catch (err) {
    done(err as Error);
  }
}

/** JSON text with every object's keys sorted (recursively): equal for equal values, whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
