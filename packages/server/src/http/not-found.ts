import type { FastifyInstance } from 'fastify';
import { HostpayError } from '../errors.js';
import { sendError } from './error-handler.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Unknown path -> 404 NOT_FOUND; known path, other method -> 405 METHOD_NOT_ALLOWED with `Allow`.
 * Asking the router keeps this right as routes are added, with no list to maintain.
 */
export function installNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((req, reply) => {
    const q = req.url.indexOf('?');
    const path = q === -1 ? req.url : req.url.slice(0, q);
    // A route for this very method exists (a static-file wildcard that found no file): the resource
    // is missing, whatever other methods the wildcard has.
    const own = app.findRoute({ method: req.method as (typeof METHODS)[number], url: path }) !== null;
    const allowed = own
      ? []
      : METHODS.filter((method) => method !== req.method && app.findRoute({ method, url: path }) !== null);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendError(
        reply,
        new HostpayError(
          'METHOD_NOT_ALLOWED',
          `method ${req.method} is not allowed on ${path}: use ${allowed.join(' or ')}`,
        ),
        req.id,
      );
    }
    return sendError(
      reply,
      new HostpayError('NOT_FOUND', `no such resource: ${req.method} ${path} (see /docs for the API)`),
      req.id,
    );
  });
}
