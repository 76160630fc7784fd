import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HostpayError } from '../../errors.js';
import { securityHeaders } from '../../http/page-headers.js';
import type { TypedApp } from '../../http/route-context.js';
import { builtFrontDir, type ConsoleFiles, loadConsoleFiles } from '../console/static.js';

/** The built files, read once per process (tests build them first: test-build-setup.ts). */
let cached: ConsoleFiles | undefined;
function files(): ConsoleFiles | undefined {
  cached ??= loadConsoleFiles(builtFrontDir('dashboard'));
  return cached;
}

const SCREEN_PATH = /^\/dashboard(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,199})*\/?$/;

const NOT_BUILT =
  '<!doctype html><html lang="en"><title>hostpay dashboard</title><h1>The dashboard is not built</h1><p>Run <code>npm run build</code>, then restart the server.</p></html>';

/**
 * /dashboard and every client-side route under it answer the one HTML file (the page picks the
 * screen from the path), with the payment page's security headers and CSP: no inline script or
 * style. /dashboard/api/* is the account routes' (features/merchant-users): an unknown one there
 * is a JSON 404, never the page.
 */
export async function dashboardPageRoutes(app: TypedApp): Promise<void> {
  app.addHook('onRequest', async (_req, reply) => {
    securityHeaders(reply);
  });
  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    // A screen's path is plain segments (ids, link tokens); anything else (an encoded slash, a dot
    // segment) and all of /dashboard/api are not a screen.
    const path = req.url.split('?')[0]!;
    if (!SCREEN_PATH.test(path) || path === '/dashboard/api' || path.startsWith('/dashboard/api/'))
      throw new HostpayError('NOT_FOUND', 'no such dashboard page or API route: see docs/dashboard.md');
    const built = files();
    return reply
      .code(built === undefined ? 503 : 200)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(built === undefined ? NOT_BUILT : built.index);
  };
  app.get('/dashboard', { schema: { hide: true } }, page);
  app.get('/dashboard/*', { schema: { hide: true } }, page);
  app.get(
    '/dashboard/assets/:file',
    { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 80 }) }) } },
    async (req, reply) => {
      const file = files()?.assets.get(req.params.file);
      if (file === undefined)
        throw new HostpayError(
          'NOT_FOUND',
          'no such dashboard file: files are named by their content hash; reload the page',
        );
      return reply.header('cache-control', 'public, max-age=31536000, immutable').type(file.type).send(file.body);
    },
  );
}
