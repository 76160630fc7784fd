import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsApp } from '../src/http/docs-app.js';
import { registeredRoutes } from '../src/http/route-list.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/**
 * Swagger UI runs in an app of its own, loaded on first use (http/docs-app.ts); the app registers
 * its routes at start (openapi.ts, DOCS_ROUTES) and passes their requests on.
 */
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

describe('the /docs routes', () => {
  it("are the docs app's own, method for method", async () => {
    const inner = await docsApp(() => ({}));
    try {
      expect(registeredRoutes(fx.app).filter((r) => r.url.startsWith('/docs'))).toEqual(registeredRoutes(inner));
    } finally {
      await inner.close();
    }
  });

  it('answer HEAD as GET without the body, and a missing file with the app’s 404', async () => {
    const get = await fx.app.inject({ method: 'GET', url: '/docs' });
    const head = await fx.app.inject({ method: 'HEAD', url: '/docs' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
    const missing = await fx.app.inject({ method: 'GET', url: '/docs/static/no-such-file.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(missing.headers).not.toHaveProperty('x-hostpay-docs-miss');
  });
});
