import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { MAX_ENDPOINT_SERIES, OTHER_ENDPOINTS, WebhookMetrics } from '../src/features/webhooks/metrics.js';
import type { Store } from '../src/store/store.js';

/** Issue 24 item 7: merchants create endpoints, so the per-endpoint series must stay bounded. */
describe('per-endpoint delivery latency series', () => {
  it(`at most ${MAX_ENDPOINT_SERIES} endpoints get a series of their own; the rest share endpoint="${OTHER_ENDPOINTS}"`, async () => {
    // The queue gauges read the store only when scraped; this registry holds the latency alone.
    const metrics = new WebhookMetrics({} as Store, Date.now);
    const registry = new Registry();
    registry.registerMetric(metrics.latency);
    const ok = { statusCode: 200, error: null, latencyMs: 12 } as Parameters<WebhookMetrics['observe']>[1];
    for (let i = 0; i < MAX_ENDPOINT_SERIES + 50; i++) metrics.observe(`we_${i}`, ok, 0);
    // An endpoint that got its series keeps it, whatever came after.
    metrics.observe('we_0', ok, 0);
    const text = await registry.metrics();
    const labels = new Set([...text.matchAll(/_count\{endpoint="([^"]+)"\}/g)].map((m) => m[1]));
    expect(labels.size).toBe(MAX_ENDPOINT_SERIES + 1);
    expect(labels.has(OTHER_ENDPOINTS)).toBe(true);
    expect(labels.has(`we_${MAX_ENDPOINT_SERIES}`)).toBe(false);
    expect(text).toMatch(/_count\{endpoint="we_0"\} 2$/m);
    expect(text).toMatch(new RegExp(`_count\\{endpoint="${OTHER_ENDPOINTS}"\\} 50$`, 'm'));
  });
});
