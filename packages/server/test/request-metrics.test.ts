import { Registry, type Metric } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LATENCY_BUCKETS_SECONDS, RequestMetrics } from '../src/observability/request-metrics.js';

describe('request metrics, rendered by prom-client at scrape time', () => {
  it('counts per route, method and status, with cumulative buckets, +Inf, sum and count', async () => {
    const m = new RequestMetrics();
    const registry = new Registry();
    for (const c of m.collectors({ requests: 't_requests_total', latency: 't_duration_seconds' }))
      registry.registerMetric(c as unknown as Metric);
    const seconds = [0.0001, 0.0007, 0.003, 0.003, 0.2, 9];
    for (const s of seconds) m.series('/w', 'GET', 200).observe(s);
    m.series('/w', 'GET', 401).observe(0.001);
    const text = await registry.metrics();

    expect(text).toContain('# TYPE t_requests_total counter');
    expect(text).toContain('# TYPE t_duration_seconds histogram');
    expect(text).toMatch(/^t_requests_total\{route="\/w",method="GET",status="200"\} 6$/m);
    expect(text).toMatch(/^t_requests_total\{route="\/w",method="GET",status="401"\} 1$/m);
    const bucket = (le: string) =>
      Number(
        new RegExp(
          `^t_duration_seconds_bucket\\{route="/w",method="GET",status="200",le="${le.replace('+', '\\+')}"\\} (\\S+)$`,
          'm',
        ).exec(text)?.[1],
      );
    // Each bucket holds every observation at or below its bound.
    for (const le of LATENCY_BUCKETS_SECONDS)
      expect(bucket(String(le)), `le=${le}`).toBe(seconds.filter((s) => s <= le).length);
    expect(bucket('+Inf')).toBe(6);
    expect(text).toMatch(/^t_duration_seconds_count\{route="\/w",method="GET",status="200"\} 6$/m);
    const sum = Number(/^t_duration_seconds_sum\{route="\/w",method="GET",status="200"\} (\S+)$/m.exec(text)?.[1]);
    expect(sum).toBeCloseTo(
      seconds.reduce((a, b) => a + b, 0),
      9,
    );
  });
});
