import { parseExactJson } from '@hostpay/protocol';
import type { FastifyInstance } from 'fastify';
import { HostpayError } from '../errors.js';
import { nulError } from './nul-text.js';

/**
 * JSON bodies kept as received (the signature covers the exact text, `request.rawBody`) and
 * parsed without losing a digit: a number literal that is a safe whole number becomes a number
 * (counts, seconds), every other number literal stays its exact source text, so `"amount": 0.1`
 * reaches the service as "0.1" and `1e400` as "1e400" (refused by the amount check, not rounded).
 * Keys are set as own properties: `__proto__` cannot reach a prototype. Every other content type
 * in the scope is 415; an empty body is `{}`.
 */
export function useExactJsonBody(app: FastifyInstance, bodyLimit: number, example: string): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (req, body, done) => {
    const raw = body as string;
    req.rawBody = raw;
    if (raw === '') return done(null, {});
    let value: unknown;
    try {
      value = parseBody(raw);
    } catch (err) {
      // SyntaxError, or RangeError from nesting deeper than the stack: either way not a body we take.
      const why = err instanceof SyntaxError ? err.message : 'nested too deeply';
      done(
        new HostpayError(
          'INVALID_BODY',
          `request body is not valid JSON (${why}): send a JSON object, e.g. ${example}`,
        ),
        undefined,
      );
      return;
    }
    const nul = nulError(raw, value);
    if (nul !== undefined) return done(nul, undefined);
    done(null, value);
  });
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body === undefined) req.body = {};
    done();
  });
}

/**
 * Numbers are the only values JSON.parse reads differently: a body without any (most of them:
 * amounts usually come as strings) is taken from it, several times faster than the exact reader.
 * Other documents, like the stored fee, always hold numbers, so they go
 * straight to `parseExactJson`.
 */
function parseBody(raw: string): unknown {
  let native: unknown;
  try {
    native = JSON.parse(raw);
  } catch {
    native = undefined; // the exact reader says where and why
  }
  return native !== undefined && !holdsNumber(native) ? native : parseExactJson(raw, exactNumber);
}

function holdsNumber(value: unknown): boolean {
  if (typeof value === 'number') return true;
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsNumber);
  for (const key of Object.keys(value)) if (holdsNumber((value as Record<string, unknown>)[key])) return true;
  return false;
}

function exactNumber(literal: string): number | string {
  if (/^-?(0|[1-9][0-9]{0,14})$/.test(literal)) return Number(literal);
  return literal;
}
