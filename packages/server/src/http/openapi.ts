import {
  Checkout,
  MerchantSettings,
  PaymentLink,
  Payout,
  PayoutDestination,
  ErrorEnvelope,
  FeePreviewEnvelope,
  TimeEnvelope,
  TokenEnvelope,
  WalletListEnvelope,
} from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import { HostpayError } from '../errors.js';
import { lazyPromise } from '../lazy.js';
import type { DocsSource } from './docs-app.js';
import { DOCS_SIGNING_FILE } from './docs-signing.js';
import { JSON_UTF8 } from './envelope.js';
import { sendError } from './error-handler.js';
import { addWebhooks } from './openapi-webhooks.js';
import { collapseStringEnums, markOptionalBodies, referenceNamedSchemas } from './openapi-document.js';
import {
  apiDescription,
  declareSignatureVersion,
  operationName,
  SIGNATURE_SCHEME_DESCRIPTION,
} from './openapi-signature.js';

/**
 * The OpenAPI 3.1 document is generated from the route schemas themselves, so it cannot drift from
 * what the server validates. Call `registerOpenApi` before the routes (it collects them as they
 * are added) and `registerDocs` after, with what it returned. What generates the document and
 * serves Swagger UI (docs-app.ts) is loaded on the first request for either.
 */
const ADMIN_DESCRIPTION = [
  '',
  'Operators manage merchants, keys, wallets, balances and fees under `/admin/v1` (tag `admin`) with',
  '`Authorization: Bearer <operator token>`. Amounts in admin request bodies are JSON strings holding',
  'exact decimals (e.g. `"12.50"`); answers write them as exact number literals. Writes accept an',
  '`Idempotency-Key` header: a retry with the same key and request gets the first answer again.',
].join('\n');

const TAGS = [
  { name: 'public', description: 'No credentials: server time, liveness, readiness and metrics.' },
  { name: 'auth', description: 'Bearer tokens for an API key, requested with the signed key headers.' },
  { name: 'merchant', description: 'The merchant API: wallets and fee previews; all four authentication headers.' },
  {
    name: 'checkout',
    description:
      'Hosted checkouts: create, read, cancel, and in a sandbox simulate a payment; all four authentication headers, JSON bodies signed.',
  },
  {
    name: 'payment-links',
    description:
      'Payment links: reusable URLs (/l/{slug}) that make a fresh checkout for each payer; scopes links:read and links:write (docs/payment-links.md).',
  },
  {
    name: 'invoice',
    description:
      'Invoices: drafts, finalize (a gap-free number per merchant), send, void, mark uncollectible, the PDF; paid through checkouts on the public page /i/{token}; scopes invoices:read and invoices:write (docs/invoices.md).',
  },
  {
    name: 'payouts',
    description:
      'Money out: payouts to the address book (destinations cool off first), cancel, and in a sandbox simulate; writes need scope payouts:write, never granted by default.',
  },
  {
    name: 'webhooks',
    description:
      'Events (also readable by polling) and webhook endpoints: Standard Webhooks signatures, delivery log, redelivery and replay; all four authentication headers.',
  },
  {
    name: 'reports',
    description:
      'Accounting: CSV or NDJSON exports streamed in constant memory (not enveloped), the monthly statement per wallet and search across checkouts and payouts; scope reports:read (docs/reports.md).',
  },
];
const DASHBOARD_TAG = {
  name: 'dashboard',
  description:
    "The merchant dashboard's accounts: two-step sign-in, the session cookie and its CSRF token, invitations, team and security log (docs/dashboard.md). The session also opens every merchant route (the second way in).",
};
const ADMIN_TAG = {
  name: 'admin',
  description: 'Operator API: merchants, keys, wallets, ledger, fees, audit, transfers and checkout review.',
};

const CONSOLE_TAG = {
  name: 'console',
  description:
    "The operator console's session: an operator token exchanged for an HttpOnly session cookie and a CSRF token (docs/console.md).",
};

/** `admin`: the admin API is enabled, so its tag and security scheme are documented; `console`: the console's session routes too. */
export function registerOpenApi(
  app: FastifyInstance,
  version: string,
  options: { admin?: boolean; console?: boolean } = {},
): DocsSource {
  const admin = options.admin === true;
  // The operations that accept version-1 signatures, as the document names them (route option
  // `config.signatureV1`): listed in the description and given an optional signature-version.
  const v1Operations = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (route.config?.signatureV1 !== true) return;
    for (const method of [route.method].flat())
      if (method !== 'HEAD') v1Operations.add(operationName(method, route.url));
  });
  const description = () => apiDescription([...v1Operations].sort()) + (admin ? ADMIN_DESCRIPTION : '');
  for (const schema of [
    ErrorEnvelope,
    WalletListEnvelope,
    FeePreviewEnvelope,
    TokenEnvelope,
    TimeEnvelope,
    Checkout,
    PaymentLink,
    MerchantSettings,
    Payout,
    PayoutDestination,
  ])
    app.addSchema(schema);
  // What @fastify/swagger's own hooks collect, for docs-app.ts to hand it on first use.
  const routes: RouteOptions[] = [];
  const instances: FastifyInstance[] = [];
  app.addHook('onRoute', (route) => void routes.push(route));
  app.addHook('onRegister', (instance) => void instances.push(instance));
  const swaggerOptions: DocsSource['options'] = {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'hostpay API',
        version,
        // Set by transformObject, once the routes (and so the version-1 operations) are known.
        description: '',
        // The licence of this software (LICENSE at the repository root).
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      // Relative: the document describes whichever host serves it (and "Try it out" calls that host).
      servers: [{ url: '/', description: 'The server this document is served by.' }],
      tags: admin
        ? [...TAGS, DASHBOARD_TAG, ADMIN_TAG, ...(options.console === true ? [CONSOLE_TAG] : [])]
        : [...TAGS, DASHBOARD_TAG],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'api-key', description: 'Public API key id (hp_...).' },
          timestamp: {
            type: 'apiKey',
            in: 'header',
            name: 'timestamp',
            description: 'Current Unix time in whole seconds; see GET /api/v1/time.',
          },
          signature: {
            type: 'apiKey',
            in: 'header',
            name: 'signature',
            description: SIGNATURE_SCHEME_DESCRIPTION,
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Token from POST /api/v1/auth/token.',
          },
          ...(admin
            ? {
                operatorToken: {
                  type: 'http',
                  scheme: 'bearer',
                  description: 'Operator token (HOSTPAY_ADMIN_TOKEN or HOSTPAY_ADMIN_TOKENS); admin API only.',
                },
              }
            : {}),
        },
      },
    },
    // Shared schemas appear under components.schemas by their $id, not as def-0, def-1, ...
    refResolver: {
      buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transformObject: (documentObject) => {
      const doc = (
        'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject
      ) as Parameters<typeof markOptionalBodies>[0];
      if (typeof doc.info === 'object' && doc.info !== null && !Array.isArray(doc.info))
        doc.info.description = description();
      declareSignatureVersion(doc, v1Operations);
      markOptionalBodies(doc);
      addWebhooks(doc);
      collapseStringEnums(doc);
      referenceNamedSchemas(doc);
      return doc;
    },
  };
  return { app, routes, instances, options: swaggerOptions };
}

/**
 * Swagger UI's routes (@fastify/swagger-ui with docs-app.ts's options, under /docs), which the app
 * answers by passing the request on to the docs app: registered at start, so that 404 and 405
 * answers, metrics and the route list are what they were with the plugin in the app. A test
 * checks them against the docs app's own. Each GET gets its HEAD route from Fastify.
 */
export const DOCS_ROUTES: { method: 'GET' | ['HEAD', 'GET']; url: string }[] = [
  { method: 'GET', url: `/static/theme/${DOCS_SIGNING_FILE}` },
  { method: 'GET', url: '/' },
  { method: 'GET', url: '/static/index.html' },
  { method: 'GET', url: '/static/swagger-initializer.js' },
  { method: 'GET', url: '/json' },
  { method: 'GET', url: '/yaml' },
  { method: ['HEAD', 'GET'], url: '/static/*' },
];

/** Headers of the docs app's answer that belong to its own connection, not to the answer. */
const NOT_PASSED_ON = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

type Lazy = typeof import('./docs-app.js');

/**
 * An error inside the docs app, answered as the app answers any other: a bug (5xx) is thrown to
 * the app's error handler (logged, INTERNAL); a refused request keeps its status and the
 * Content-Range that goes with it (a Range past a file's end is 416 with the file's size), with
 * the envelope. Only a message the error marks as meant for clients (`expose`) is shown.
 */
function answerDocsFailure(req: FastifyRequest, reply: FastifyReply, status: number, err: unknown): FastifyReply {
  if (status >= 500) throw err ?? new Error('the API documentation app failed');
  const e = (err ?? {}) as { message?: unknown; expose?: unknown; headers?: Record<string, unknown> };
  // getBuiltinModule, not an import: an ES import of node:http loads undici (outbound/agents.ts).
  const reason =
    e.expose === true && typeof e.message === 'string'
      ? e.message
      : process.getBuiltinModule('node:http').STATUS_CODES[status];
  const hint = status === 416 ? ': ask for a range inside the file' : '';
  const range = e.headers?.['Content-Range'] ?? e.headers?.['content-range'];
  const refused = new HostpayError(
    'INVALID_QUERY',
    `the documentation refused this request (${status} ${reason})${hint}`,
    undefined,
    typeof range === 'string' ? { 'content-range': range } : undefined,
  );
  return sendError(reply, refused, req.id, status);
}

export async function registerDocs(app: FastifyInstance, source: DocsSource): Promise<void> {
  // Each loaded on first use and kept; a failure (the module, building the document, starting the
  // docs app) is tried again by the next request.
  const load = lazyPromise(async () => {
    const lazy: Lazy = await import('./docs-app.js');
    return { lazy, document: lazy.openApiDocument(source) };
  });
  const docs = lazyPromise(async () => {
    const { lazy, document } = await load();
    return { inner: await lazy.docsApp(document), lazy };
  });
  app.addHook('onClose', async () => {
    await (await docs.made()?.catch(() => undefined))?.inner.close();
  });
  // `get`: the route is a GET whose HEAD route is Fastify's, which runs this handler and drops the
  // body it sends (measuring it for content-length): the docs app is asked for the GET.
  const passOn =
    (get: boolean): RouteHandlerMethod =>
    async (req, reply) => {
      const { inner, lazy } = await docs();
      const miss = lazy.DOCS_MISS;
      const method = get ? 'GET' : (req.method as 'HEAD' | 'GET');
      const res = await inner.inject({ method, url: req.url, headers: req.headers });
      const failed = lazy.docsFailure(res.raw.req);
      if (failed !== undefined) return answerDocsFailure(req, reply, res.statusCode, failed.err);
      const missing = res.headers[miss] !== undefined;
      for (const [name, value] of Object.entries(res.headers)) {
        if (NOT_PASSED_ON.has(name) || name === miss || value === undefined) continue;
        if (missing && (name === 'content-type' || name === 'content-length')) continue;
        reply.header(name, value);
      }
      // No such file: the app's own 404, as for any other missing resource.
      if (missing) return reply.callNotFound();
      return reply.code(res.statusCode).send(res.rawPayload.length === 0 ? undefined : res.rawPayload);
    };
  await app.register(
    async (scope) => {
      for (const route of DOCS_ROUTES)
        scope.route({ ...route, schema: { hide: true }, handler: passOn(route.method === 'GET') });
    },
    { prefix: '/docs' },
  );
  let document: string | undefined;
  app.get(
    '/openapi.json',
    {
      schema: { hide: true, response: { 200: Type.Object({}, { additionalProperties: true }) } },
    },
    async (_req, reply) => {
      // Routes are fixed once the app is ready, so the document is built once.
      document ??= JSON.stringify((await load()).document());
      return reply.type(JSON_UTF8).send(document);
    },
  );
}
