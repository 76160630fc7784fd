import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtFrontDir } from '../src/features/console/static.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/**
 * The dashboard's files as the server serves them (the bundle is built by the global setup):
 * the one HTML at /dashboard and every client-side path under it, with the pages' CSP and
 * headers; assets by content hash with SRI; /dashboard/api/* never the page; and the bundle's
 * gzip size within the budget written in docs/dashboard.md.
 */
const DOC = fileURLToPath(new URL('../../../docs/dashboard.md', import.meta.url));
let fx: HttpFixture;

beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

const get = (url: string) => fx.app.inject({ method: 'GET', url });

describe('the dashboard page', () => {
  it('answers /dashboard and its client-side routes with one HTML and a CSP without unsafe-inline', async () => {
    const html = (await get('/dashboard')).body;
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/checkouts/chk_x', '/dashboard/invitations/abc']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toBe(html);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(html).not.toMatch(/<script>|<style|style=/);
  });

  it('links its two assets with SRI; they are served immutable, with the CSP', async () => {
    const html = (await get('/dashboard')).body;
    const links = [...html.matchAll(/(?:href|src)="(\/dashboard\/assets\/[^"]+)" integrity="([^"]+)"/g)];
    expect(links.map((m) => m[1]!.split('.').pop())).toEqual(['css', 'js']);
    for (const [, url, integrity] of links) {
      const res = await get(url!);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
      expect(`sha384-${createHash('sha384').update(res.rawPayload).digest('base64')}`).toBe(integrity);
    }
    const missing = await get('/dashboard/assets/dashboard-NOPE.js');
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ status: false, error: { code: 'NOT_FOUND' } });
  });

  it('an unknown /dashboard/api path, or one with an encoded slash or dots, is a JSON 404, never the page', async () => {
    for (const url of ['/dashboard/api/nope', '/dashboard/api/', '/dashboard/api%2Fsession', '/dashboard/%2E%2E/x']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(JSON.parse(res.body)).toMatchObject({ status: false, error: { code: 'NOT_FOUND' } });
    }
  });

  it('keeps the bundle within the gzip budget written in docs/dashboard.md', () => {
    const budget = /^Bundle budget: (\d+) KB gzip$/m.exec(readFileSync(DOC, 'utf8'));
    expect(budget, 'docs/dashboard.md states "Bundle budget: N KB gzip"').not.toBeNull();
    const html = readFileSync(`${builtFrontDir('dashboard')}/index.html`, 'utf8');
    const files = [...html.matchAll(/\/dashboard\/assets\/([^"]+)"/g)].map((m) => m[1]!);
    expect(files).toHaveLength(2);
    const gzipped = files.reduce(
      (n, f) => n + gzipSync(readFileSync(`${builtFrontDir('dashboard')}/assets/${f}`), { level: 9 }).length,
      0,
    );
    console.log(`dashboard bundle: ${gzipped} bytes gzip (budget ${budget![1]} KB)`);
    expect(gzipped).toBeLessThanOrEqual(Number(budget![1]) * 1024);
    // A budget far above the bundle checks nothing: it stays within twice the size.
    expect(Number(budget![1]) * 1024).toBeLessThan(gzipped * 2);
  });
});
