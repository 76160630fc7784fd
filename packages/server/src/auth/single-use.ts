import type { FastifyRequest } from 'fastify';
import { HostpayError } from '../errors.js';
import { SAFE_METHODS } from './cookie-session.js';
import type { MerchantServices } from './ports.js';

/**
 * Single-use signatures. A signature on a state-changing merchant request
 * (anything but GET and HEAD) is accepted once: whoever captured the request (a proxy log, a
 * middlebox) cannot send it again within its timestamp's window, with a new Idempotency-Key or
 * none, to make a second payout or obtain a fresh webhook secret.
 *
 * Runs as a preHandler after authentication and after the Idempotency-Key check
 * (http/idempotency-hook.ts): the same key and request replays the stored answer before this is
 * asked, so the documented retry keeps working. A refused request leaves nothing behind, not even
 * its idempotency claim. Dashboard sessions carry no signature (CSRF guards their writes), and the
 * token endpoint is not a merchant route: it changes nothing, and two workers asking for a token in
 * the same second send byte-identical requests (docs/api.md, Security notes).
 */
export function singleUseSignatures(services: MerchantServices, toleranceSeconds: number) {
  return async (req: FastifyRequest): Promise<void> => {
    if (SAFE_METHODS.has(req.method)) return;
    const principal = req.principal;
    if (principal === null || principal.via !== 'key') return;
    const { signature, timestamp } = req.headers;
    // Authentication accepted both as single strings (64 lowercase hex, digits).
    if (typeof signature !== 'string' || typeof timestamp !== 'string') return;
    // The last moment checkTimestamp accepts this timestamp, and a second of margin.
    const expiresAtMs = (Number(timestamp) + toleranceSeconds + 1) * 1000;
    if (!(await services.claimSignature(principal.key.id, signature, expiresAtMs))) throw signatureReused();
  };
}

export function signatureReused(): HostpayError {
  return new HostpayError(
    'SIGNATURE_REUSED',
    'this signed request was already accepted once (same api-key, timestamp and signature) and nothing was done now: ' +
      'sign a new request with a fresh timestamp, or send the first request again with its Idempotency-Key to get its answer',
  );
}
