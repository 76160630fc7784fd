import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/server.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/** startServer: a real port, production timeouts, and a close that lets in-flight work finish. */
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

describe('startServer', () => {
  it('listens with timeouts set and drains an in-flight request on close', async () => {
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = (): void => {};
    const arrived = new Promise<void>((resolve) => (started = resolve));
    const app = await fx.buildApp({ merchant: { checkReady: async () => (started(), gate) } });
    const server = await startServer(app, { host: '127.0.0.1', port: 0, handleSignals: false });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(app.server.requestTimeout).toBe(30_000);
    expect(app.server.headersTimeout).toBeGreaterThan(app.server.keepAliveTimeout);

    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get('x-request-id')).toMatch(/^req_/);

    const inflight = fetch(`${server.url}/readyz`);
    await arrived;
    const closed = server.close();
    release();
    const res = await inflight;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: true, result: { status: 'ready' } });
    await closed;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
