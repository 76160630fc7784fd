import fastifyCompress from '@fastify/compress';
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type RouteOptions } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { COMPRESSION_PLUGIN_OPTIONS } from './compression.js';
import { DOCS_SIGNING_FILE, DOCS_SIGNING_SCRIPT, requestInterceptor } from './docs-signing.js';
import { FASTIFY_COMPILERS } from './fastify-compilers.js';
import { trackRoutes } from './route-list.js';

/**
 * The API documentation's machinery, loaded on the first request for /openapi.json or /docs
 * (openapi.ts) instead of at start: @fastify/swagger with `yaml`, @fastify/swagger-ui with
 * @fastify/static, and @fastify/compress, which only Swagger UI's files use, were ~50 ms of every
 * start and their code in memory (docs/benchmarks.md, "Start-up and memory").
 */

/** What @fastify/swagger's hooks would have seen of the app, collected at start by openapi.ts. */
export interface DocsSource {
  app: FastifyInstance;
  /** Every route's options as its onRoute hook received them (the same objects, HEAD routes included). */
  routes: RouteOptions[];
  /** Every plugin instance registered after the collection began (their schemas are documented too). */
  instances: FastifyInstance[];
  options: FastifyDynamicSwaggerOptions;
}

export type OpenApiDocument = () => unknown;

/** The header by which the docs app tells openapi.ts it has no such file: the app's own 404 answers. */
export const DOCS_MISS = 'x-hostpay-docs-miss';

/**
 * Requests that failed inside the docs app (a throw from the document, a Range past a file's end),
 * by the request openapi.ts injected: it answers them like any other error of the app's (the
 * envelope, logged if a bug).
 */
const failures = new WeakMap<IncomingMessage, unknown>();

/** The error an injected request failed with inside the docs app, if it did. */
export function docsFailure(req: IncomingMessage): { err: unknown } | undefined {
  return failures.has(req) ? { err: failures.get(req) } : undefined;
}

type Hook = (...args: unknown[]) => void;

/**
 * The document @fastify/swagger generates from the route schemas. The plugin collects them through
 * an instance's onRoute, onRegister and onReady hooks and decorates the instance with the document
 * function; here it is given an instance of just those (the app's were collected by openapi.ts at
 * start, and the app is ready), then handed what the hooks would have received, in the same order.
 */
export function openApiDocument(source: DocsSource): OpenApiDocument {
  const hooks = new Map<string, Hook>();
  let document: OpenApiDocument | undefined;
  const host = {
    addHook: (name: string, hook: Hook) => void hooks.set(name, hook),
    decorate: (_name: string, value: OpenApiDocument) => {
      document = value;
    },
    getSchemas: () => source.app.getSchemas(),
  };
  const hook = (name: string): Hook => {
    const found = hooks.get(name);
    if (found === undefined) throw new Error(`@fastify/swagger no longer adds an ${name} hook: see docs-app.ts`);
    return found;
  };
  swagger(host as unknown as FastifyInstance, source.options, (err) => {
    if (err) throw err;
  });
  for (const instance of source.instances) hook('onRegister')(instance);
  for (const route of source.routes) hook('onRoute')(route);
  hook('onReady')((err: unknown) => {
    if (err) throw err;
  });
  if (document === undefined) throw new Error('@fastify/swagger gave no document function: see docs-app.ts');
  return document;
}

/**
 * Swagger UI under /docs, in an app of its own that openapi.ts's /docs routes pass their requests
 * to. Its assets ship inside @fastify/swagger-ui, so /docs works offline; its validator badge (an
 * external call) is off by default.
 */
export async function docsApp(document: OpenApiDocument): Promise<FastifyInstance> {
  const docs = Fastify({ logger: false, schemaController: FASTIFY_COMPILERS });
  trackRoutes(docs);
  docs.setNotFoundHandler((_req, reply) => reply.code(404).header(DOCS_MISS, '1').send());
  docs.setErrorHandler((err: { statusCode?: unknown; status?: unknown }, req, reply) => {
    const given = typeof err.statusCode === 'number' ? err.statusCode : err.status;
    const status = typeof given === 'number' && given >= 400 && given <= 599 ? given : 500;
    reply.code(status);
    failures.set(req.raw, err);
    return reply.send();
  });
  // Swagger UI declares @fastify/swagger a dependency and reads the document from its decorator.
  const provider: FastifyPluginAsync = async (instance) => {
    instance.decorate('swagger', document as FastifyInstance['swagger']);
  };
  await docs.register(
    Object.assign(provider, {
      [Symbol.for('skip-override')]: true,
      [Symbol.for('plugin-meta')]: { name: '@fastify/swagger' },
    }),
  );
  await docs.register(fastifyCompress, { ...COMPRESSION_PLUGIN_OPTIONS, globalCompression: true });
  await docs.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // The signing form and interceptor for "Try it out" (docs-signing.ts), as a file the CSP allows.
    theme: { title: 'hostpay API', js: [{ filename: DOCS_SIGNING_FILE, content: DOCS_SIGNING_SCRIPT }] },
    uiConfig: { deepLinking: true, requestInterceptor },
  });
  await docs.ready();
  return docs;
}
