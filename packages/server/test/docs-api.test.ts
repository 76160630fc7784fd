import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/**
 * docs/api.md is the reference a merchant integrates against (issue 26, item 9): its endpoint
 * tables list every merchant and public route of the served OpenAPI document, method by method,
 * and every path the page names anywhere is one the server serves.
 */
const API_MD = readFileSync(fileURLToPath(new URL('../../../docs/api.md', import.meta.url)), 'utf8');

/** Served, but not in the OpenAPI document (the document itself, its UI, the HTML payment page). */
const NOT_IN_OPENAPI = ['GET /openapi.json', 'GET /docs', 'GET /pay/{id}'];

let fx: HttpFixture;
let documented: string[];
beforeAll(async () => {
  fx = await createFixture({ sandbox: true });
  const res = await fx.app.inject({ method: 'GET', url: '/openapi.json' });
  const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
  documented = Object.entries(doc.paths)
    .filter(([path]) => !path.startsWith('/admin/') && !path.startsWith('/console'))
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
});
afterAll(() => fx.close());

/** `METHOD path` of every row of the endpoint tables (`| GET | \`/path\` | …`). */
function tableRows(md: string): string[] {
  return [...md.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/gm)].map(([, m, p]) => `${m} ${p}`);
}

/** Every path the page names in code spans (`/api/v1/…`, `GET /healthz`, with or without a query). */
function namedPaths(md: string): string[] {
  return [...md.matchAll(/`(?:[A-Z]+ )?(\/[^`\s?]+)(?:\?[^`]*)?`/g)]
    .map(([, p]) => p!)
    .filter((p) => p.length > 1 && !p.includes('...') && !p.includes('…'));
}

/** Whether the app has a route for `path` (a `{param}` template, or a concrete path once percent-decoded). */
function served(path: string): boolean {
  const url = decodeURI(path).replace(/\{[^}]+\}/g, 'x_1');
  return ['GET', 'POST', 'PATCH', 'DELETE'].some(
    (method) => fx.app.hasRoute({ method, url }) || routeMatches(method, url),
  );
}

/** Fastify's hasRoute compares templates; a concrete path is matched through the router instead. */
function routeMatches(method: string, url: string): boolean {
  return fx.app.findRoute({ method: method as 'GET', url }) !== null;
}

describe('docs/api.md covers the merchant API', () => {
  it('its endpoint tables list every merchant and public operation of the served OpenAPI document', () => {
    const rows = new Set(tableRows(API_MD));
    expect(documented.length).toBeGreaterThan(20);
    expect(documented.filter((op) => !rows.has(op))).toEqual([]);
  });

  it('its tables list nothing else than those operations and the few routes outside the document', () => {
    const rows = tableRows(API_MD);
    expect(rows.filter((op) => !documented.includes(op) && !NOT_IN_OPENAPI.includes(op))).toEqual([]);
    expect(new Set(rows).size).toBe(rows.length);
    for (const op of NOT_IN_OPENAPI) {
      expect(rows, op).toContain(op);
      expect(served(op.split(' ')[1]!), op).toBe(true);
    }
  });

  it('every path the page names exists (or is the prefix of routes that do)', () => {
    const paths = namedPaths(API_MD);
    expect(paths.length).toBeGreaterThan(20);
    const templates = documented.map((op) => op.split(' ')[1]!);
    const missing = paths.filter(
      (p) =>
        !served(p) && !templates.some((t) => t.startsWith(`${p}/`)) && !NOT_IN_OPENAPI.some((op) => op.endsWith(p)),
    );
    expect(missing).toEqual([]);
  });

  it('the checks catch a missing and an invented path', () => {
    const withoutCancel = API_MD.replace(/^\| POST \| `\/api\/v1\/cp\/psp\/hosted-pay\/\{id\}\/cancel`.*\n/m, '');
    expect(documented.filter((op) => !new Set(tableRows(withoutCancel)).has(op))).toEqual([
      'POST /api/v1/cp/psp/hosted-pay/{id}/cancel',
    ]);
    expect(namedPaths('see `/api/v1/cp/refunds/{id}`').filter((p) => !served(p))).toEqual(['/api/v1/cp/refunds/{id}']);
  });
});
