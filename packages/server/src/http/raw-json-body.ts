import type { FastifyInstance } from 'fastify';
import { HostpayError } from '../errors.js';
import { nulError } from './nul-text.js';

/**
 * JSON bodies kept as received: the signature covers the exact text, so the parser stores it on
 * `request.rawBody` before parsing. Registered only in the scope of routes that take a body; every
 * other content type there is 415. An empty body (with or without Content-Type) is `{}`.
 */
export function useRawJsonBody(app: FastifyInstance, bodyLimit: number, example = '{"expiresIn": 3600}'): void {
  app.removeAllContentTypeParsers();
  // Fastify's own parser: rejects __proto__ / constructor.prototype keys (prototype poisoning).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (req, body, done) => {
    const raw = body as string;
    req.rawBody = raw;
    if (raw === '') return done(null, {});
    parseJson(req, raw, (err, value) => {
      if (err) {
        return done(
          new HostpayError(
            'INVALID_BODY',
            `request body is not valid JSON (${err.message}): send a JSON object, e.g. ${example}, or no body`,
          ),
          undefined,
        );
      }
      const nul = nulError(raw, value);
      if (nul !== undefined) return done(nul, undefined);
      done(null, value);
    });
  });
  // Without a body there is no parser run: make the body `{}` before validation sees it.
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body === undefined) req.body = {};
    done();
  });
}
