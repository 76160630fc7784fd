import { TimeEnvelope } from '@hostpay/protocol';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/create-server.js';
import { ALICE, createAdminFixture, OPERATOR_TOKENS } from './http-helpers/admin-fixture.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/** Routes without authentication: time, health, the OpenAPI document and the docs page. */
let fx: HttpFixture;
// TypeBox checks formats only when told how; ISO 8601 UTC with milliseconds is what we send.
FormatRegistry.Set('date-time', (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(v));
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

const get = (url: string) => fx.app.inject({ method: 'GET', url });

describe('time and health', () => {
  it('GET /api/v1/time gives the server clock and the tolerance', async () => {
    fx.clock.offsetMs = 5_000_000;
    try {
      const res = await get('/api/v1/time');
      expect(res.statusCode).toBe(200);
      const body: unknown = res.json();
      expect(Value.Check(TimeEnvelope, body), res.body).toBe(true);
      const { result } = body as { result: { unixTime: number; iso: string; toleranceSeconds: number } };
      expect(Math.abs(result.unixTime - Math.floor(fx.now() / 1000))).toBeLessThanOrEqual(1);
      expect(Math.floor(Date.parse(result.iso) / 1000)).toBe(result.unixTime);
      expect(result.toleranceSeconds).toBe(60);
    } finally {
      fx.clock.offsetMs = 0;
    }
  });

  it('GET /healthz and /readyz answer with envelopes, no auth', async () => {
    expect((await get('/healthz')).json()).toEqual({
      status: true,
      message: 'alive',
      isSuccess: true,
      result: { status: 'alive', sandbox: false },
    });
    expect((await get('/readyz')).json()).toEqual({
      status: true,
      message: 'ready',
      isSuccess: true,
      result: { status: 'ready', store: 'up', redis: 'disabled' },
    });
  });

  it('the metrics count requests by route template and failed authentications by code', async () => {
    await get('/api/v1/cp/wallets');
    const text = await fx.app.hostpayMetrics.text();
    expect(text).toMatch(/hostpay_http_requests_total\{route="\/healthz",method="GET",status="200"\} 1/);
    expect(text).toMatch(/hostpay_auth_failures_total\{code="MISSING_HEADER"\} [1-9]/);
    expect(text).toMatch(/hostpay_store_up\{dialect="sqlite"\} 1/);
    // Redis is not configured here: no gauge at all rather than a -1 sentinel.
    expect(text).not.toContain('hostpay_redis_up');
  });
});

describe('who reads /metrics (issue 24 item 7)', () => {
  it('no operator token configured: 404 on the service port, saying where metrics are', async () => {
    const res = await get('/metrics');
    expect([res.statusCode, res.json().error.code]).toEqual([404, 'NOT_FOUND']);
    expect(res.json().message).toContain('HOSTPAY_METRICS_PORT');
    expect(res.body).not.toContain('hostpay_');
  });

  it('operator tokens configured: only an operator token reads them on the service port', async () => {
    const admin = await createAdminFixture();
    try {
      const noAuth = await admin.app.inject({ method: 'GET', url: '/metrics' });
      expect([noAuth.statusCode, noAuth.json().error.code]).toEqual([401, 'MISSING_HEADER']);
      const wrong = await admin.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer nope' },
      });
      expect([wrong.statusCode, wrong.json().error.code]).toEqual([401, 'INVALID_TOKEN']);
      expect(noAuth.body + wrong.body).not.toContain('hostpay_http_requests_total');
      const ok = await admin.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${ALICE}` },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(ok.body).toMatch(/^hostpay_http_requests_total\{route="\/metrics",method="GET",status="401"\} 2$/m);
    } finally {
      await admin.close();
    }
  });

  it('HOSTPAY_METRICS_PORT: a loopback listener of their own serves them; the service port does not', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-metrics-'));
    const config = loadConfig(
      {},
      {
        dataDir,
        logLevel: 'silent',
        port: 0,
        metricsPort: 0,
        adminTokens: OPERATOR_TOKENS,
        masterKey: randomBytes(32).toString('base64'),
      },
    );
    const server = await createServer(config, { logger: false, webhookWorker: false, evmWatcher: false });
    const running = await server.listen({ handleSignals: false });
    try {
      expect(running.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(running.metricsUrl).not.toBe(`${running.url}/metrics`);
      await fetch(`${running.url}/healthz`);
      const scraped = await fetch(running.metricsUrl!);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toMatch(
        /^hostpay_http_requests_total\{route="\/healthz",method="GET",status="200"\} 1$/m,
      );
      // Nothing else is served there, and the service port no longer answers /metrics, token or not.
      expect((await fetch(running.metricsUrl!.replace('/metrics', '/healthz'))).status).toBe(404);
      const here = await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${ALICE}` } });
      expect(here.status).toBe(404);
      expect(await here.text()).toContain('HOSTPAY_METRICS_PORT=0');
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Closed with the server: the port no longer accepts connections.
    await expect(fetch(running.metricsUrl!)).rejects.toThrow();
  });
});

describe('OpenAPI', () => {
  type Op = {
    security?: Record<string, string[]>[];
    responses: Record<string, { description: string; content?: Record<string, { schema: { $ref?: string } }> }>;
  };
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Op>>;
    components: { securitySchemes: Record<string, Record<string, string>>; schemas: Record<string, unknown> };
  };
  beforeAll(async () => {
    const res = await get('/openapi.json');
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  it('is OpenAPI 3.1 with the four auth headers as security schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'api-key' }),
      timestamp: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'timestamp' }),
      signature: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'signature' }),
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    expect(doc.components.schemas).toHaveProperty('ErrorEnvelope');
  });

  for (const path of ['/api/v1/cp/wallets/', '/api/v1/cp/wallets', '/api/v1/cp/psp/hosted-pay/fees-preview']) {
    it(`${path}: all four headers required, every error documented`, () => {
      const op = doc.paths[path]?.get;
      expect(op).toBeDefined();
      expect(op?.security).toEqual([{ apiKey: [], timestamp: [], signature: [], bearer: [] }]);
      for (const status of ['400', '401', '403', '429', '500', '503']) {
        expect(op?.responses[status]?.content?.['application/json']?.schema.$ref).toBe(
          '#/components/schemas/ErrorEnvelope',
        );
        expect(op?.responses[status]?.description).toMatch(/error\.code is one of [A-Z_]+/);
      }
      expect(op?.responses['401']?.description).toContain('INVALID_SIGNATURE');
      expect(op?.responses['403']?.description).toContain('MERCHANT_FORBIDDEN');
    });
  }

  it('fees preview documents 422 and its query', () => {
    const op = doc.paths['/api/v1/cp/psp/hosted-pay/fees-preview']?.get as Op & {
      parameters: { name: string; in: string; required?: boolean }[];
    };
    expect(op.responses['422']?.description).toContain('NO_FEE_SCHEDULE');
    expect(op.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.required ?? false])).toEqual([
      ['amount', true],
      ['currency', true],
      ['merchantId', false],
    ]);
  });

  it('the token route takes the key headers without a bearer and documents 413/415', () => {
    const op = doc.paths['/api/v1/auth/token']?.post;
    expect(op?.security).toEqual([{ apiKey: [], timestamp: [], signature: [] }]);
    expect(Object.keys(op?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '413', '415', '429']),
    );
  });

  it('public routes need no credentials', () => {
    for (const path of ['/api/v1/time', '/healthz', '/readyz']) expect(doc.paths[path]?.get?.security).toEqual([]);
    expect(doc.paths).not.toHaveProperty('/openapi.json');
  });
});

describe('/docs', () => {
  it('serves Swagger UI from bundled assets, no external URL', async () => {
    const res = await get('/docs');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).not.toMatch(/https?:\/\//);
    const scripts = [...res.body.matchAll(/src="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const asset = await get(src.startsWith('/') ? src : `/docs/${src.replace(/^\.\//, '')}`);
      expect(asset.statusCode, src).toBe(200);
    }
    const init = await get('/docs/static/swagger-initializer.js');
    expect(init.body).not.toMatch(/url: *["']https?:/);
    expect(init.body).toContain('validatorUrl: null');
  });
});
