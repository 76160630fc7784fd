import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisState } from '../src/cluster/shared-state.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { requestToken } from './http-helpers/requests.js';

/**
 * /metrics against the Prometheus naming conventions, the ones `promtool check metrics` lints
 * (client_golang's promlint): help on every metric, `_total` on counters and only on them, base
 * units spelled out, snake_case, no type in the name, no reserved suffixes outside histograms;
 * and no sentinel values: the Redis gauge is absent when Redis is not configured.
 * The exposition is read with a real parser (parse-prometheus-text-format), not regexes.
 */
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

async function scrape(redis?: RedisState): Promise<MetricFamily[]> {
  const app = redis === undefined ? fx.app : await fx.buildApp({ redisState: () => redis });
  // Some traffic first, so the labelled series exist: a success, an auth failure, a 404.
  await app.inject({ method: 'GET', url: '/healthz' });
  await requestToken(fx, { ...fx.demo, apiSecret: 'wrong' }, '', app);
  await app.inject({ method: 'GET', url: '/nowhere' });
  return parsePrometheusTextFormat(await app.hostpayMetrics.text());
}

/** What promlint (promtool check metrics) reports for one family; empty when it is clean. */
function lint(family: MetricFamily): string[] {
  const { name, type } = family;
  const problems: string[] = [];
  if (family.help.trim() === '') problems.push('no help text');
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) problems.push('not snake_case (or reserved characters such as ":")');
  if (type === 'COUNTER' && !name.endsWith('_total')) problems.push('counter without "_total" suffix');
  if (type !== 'COUNTER' && name.endsWith('_total')) problems.push('non-counter with "_total" suffix');
  if (type !== 'HISTOGRAM' && type !== 'SUMMARY' && /_(bucket|count|sum)$/.test(name))
    problems.push('reserved histogram/summary suffix');
  const parts = name.split('_');
  if (parts.some((p) => ['gauge', 'counter', 'histogram', 'summary', 'untyped'].includes(p)))
    problems.push('metric type in the name');
  const nonBase: Record<string, string> = {
    milliseconds: 'seconds',
    microseconds: 'seconds',
    nanoseconds: 'seconds',
    minutes: 'seconds',
    hours: 'seconds',
    days: 'seconds',
    kilobytes: 'bytes',
    megabytes: 'bytes',
    gigabytes: 'bytes',
    bits: 'bytes',
    percent: 'ratio',
    celsius: 'celsius',
  };
  for (const p of parts)
    if (nonBase[p] !== undefined && nonBase[p] !== p) problems.push(`use base unit "${nonBase[p]}" instead of "${p}"`);
  for (const p of parts)
    if (['ms', 'us', 'ns', 'sec', 'secs', 'kb', 'mb', 'gb'].includes(p)) problems.push(`abbreviated unit "${p}"`);
  // Durations and sizes carry their unit, so a dashboard cannot misread them.
  if (/(duration|latency|lag|_time)(_|$)/.test(name) && !/_seconds(_total)?$/.test(name))
    problems.push('a time without "_seconds"');
  if (/(memory|heap|size)(_|$)/.test(name) && !/_bytes(_total)?$/.test(name)) problems.push('a size without "_bytes"');
  return problems.map((p) => `${name} (${type.toLowerCase()}): ${p}`);
}

const values = (families: MetricFamily[], name: string) =>
  families.find((f) => f.name === name)?.metrics.map((m) => m.value);

describe('/metrics follows the Prometheus conventions', () => {
  it('every metric family passes the promtool lint rules', async () => {
    const families = await scrape();
    expect(families.length).toBeGreaterThan(10);
    expect(families.flatMap(lint)).toEqual([]);
  });

  it('names and types of our own metrics', async () => {
    const byName = new Map((await scrape()).map((f) => [f.name, f.type]));
    expect(byName.get('hostpay_http_requests_total')).toBe('COUNTER');
    expect(byName.get('hostpay_http_request_duration_seconds')).toBe('HISTOGRAM');
    expect(byName.get('hostpay_auth_failures_total')).toBe('COUNTER');
    expect(byName.get('hostpay_store_up')).toBe('GAUGE');
    expect(byName.get('hostpay_process_resident_memory_bytes')).toBe('GAUGE');
    for (const name of byName.keys()) expect(name.startsWith('hostpay_'), name).toBe(true);
  });

  it('no sentinel values: without Redis there is no Redis gauge; with it, 1 or 0', async () => {
    const none = await scrape();
    expect(none.find((f) => f.name === 'hostpay_redis_up')).toBeUndefined();
    expect(values(await scrape('up'), 'hostpay_redis_up')).toEqual(['1']);
    expect(values(await scrape('down'), 'hostpay_redis_up')).toEqual(['0']);
    for (const f of none.filter((family) => family.name.endsWith('_up'))) {
      for (const m of f.metrics) expect(['0', '1'], f.name).toContain(m.value);
    }
  });

  it('the lint catches what it should (it is not vacuous)', () => {
    const bad = (name: string, type: MetricFamily['type'], help = 'x'): MetricFamily => ({
      name,
      type,
      help,
      metrics: [],
    });
    expect(lint(bad('a_total', 'GAUGE'))).toHaveLength(1);
    expect(lint(bad('a', 'COUNTER'))).toHaveLength(1);
    expect(lint(bad('a_total', 'COUNTER', ''))).toHaveLength(1);
    expect(lint(bad('request_duration_milliseconds', 'HISTOGRAM'))).toHaveLength(2);
    expect(lint(bad('heapUsed', 'GAUGE'))).not.toEqual([]);
    expect(lint(bad('cache_size', 'GAUGE'))).toHaveLength(1);
  });
});
