import { describe, expect, it } from 'vitest';
import { injectFetch, type Injectable } from '../src/admin/inject-fetch.js';

/** An app that answers with what it received, so the test sees what injectFetch handed over. */
const echo: Injectable = {
  async inject(req) {
    const payload = JSON.stringify({
      method: req.method,
      url: req.url,
      headers: req.headers,
      payload: req.payload ?? null,
    });
    return {
      statusCode: 201,
      headers: { 'content-type': 'application/json', 'x-two': ['a', 'b'] },
      rawPayload: Buffer.from(payload),
    };
  },
};

describe('injectFetch: fetch semantics over app.inject', () => {
  const f = injectFetch(echo);

  it('passes method, path and query, headers and a string body; returns status, headers and body', async () => {
    const res = await f('http://hostpay.local/admin/v1/merchants?limit=2', {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"name":"Shop"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-two')).toBe('a, b');
    const seen = (await res.json()) as {
      method: string;
      url: string;
      headers: Record<string, string>;
      payload: string;
    };
    expect(seen).toMatchObject({ method: 'POST', url: '/admin/v1/merchants?limit=2', payload: '{"name":"Shop"}' });
    expect(seen.headers.authorization).toBe('Bearer t');
  });

  it('reads a Request input (its method, headers and body), not only init', async () => {
    const req = new Request('http://hostpay.local/x', {
      method: 'PUT',
      headers: { 'idempotency-key': 'k1' },
      body: 'hello',
    });
    const seen = (await (await f(req)).json()) as { method: string; headers: Record<string, string>; payload: string };
    expect(seen).toMatchObject({ method: 'PUT', payload: 'hello' });
    expect(seen.headers['idempotency-key']).toBe('k1');
  });

  it('honours an aborted signal', async () => {
    await expect(f('http://hostpay.local/x', { signal: AbortSignal.abort() })).rejects.toThrow();
  });
});
