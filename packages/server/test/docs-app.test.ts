import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsApp, docsFailure } from '../src/http/docs-app.js';
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

  it('answer a request the docs app refuses with its status and the envelope (a Range past the end is 416)', async () => {
    const res = await fx.app.inject({
      method: 'GET',
      url: '/docs/static/index.css',
      headers: { range: 'bytes=99999999-' },
    });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    expect(body).toMatchObject({
      status: false,
      error: { code: 'INVALID_QUERY', requestId: res.headers['x-request-id'] },
    });
    expect(body.message).toMatch(/^the documentation refused this request \(416 Range Not Satisfiable\)/);
    const size = Buffer.byteLength((await fx.app.inject({ method: 'GET', url: '/docs/static/index.css' })).body);
    expect(res.headers['content-range']).toBe(`bytes */${size}`);
    // Nothing of the hand-over between the two apps reaches the client.
    expect(Object.keys(res.headers).filter((h) => h.startsWith('x-hostpay'))).toEqual([]);
  });

  it('hand a failure inside the docs app to the app (a document that throws is a 500 of the app’s)', async () => {
    const inner = await docsApp(() => {
      throw new Error('no document');
    });
    try {
      const res = await inner.inject({ method: 'GET', url: '/docs/json' });
      expect(res.statusCode).toBe(500);
      expect(res.body).toBe('');
      expect(docsFailure(res.raw.req)).toEqual({ err: expect.objectContaining({ message: 'no document' }) });
      // A request that did not fail inside it has no failure to hand over.
      expect(
        docsFailure((await inner.inject({ method: 'GET', url: '/docs/static/index.css' })).raw.req),
      ).toBeUndefined();
    } finally {
      await inner.close();
    }
  });
});
