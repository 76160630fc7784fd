/**
 * Request counts and latencies per (route template, method, status), kept in plain numbers and
 * handed to prom-client only when /metrics is scraped. prom-client's own children hash their
 * label object on every inc/observe even when bound once: on a cached read that was about a fifth
 * of the server's CPU per request, for figures nobody reads between two scrapes.
 */

export const LATENCY_BUCKETS_SECONDS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
] as const;

export class RequestSeries {
  count = 0;
  sum = 0;
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS_SECONDS.length + 1);

  constructor(readonly labels: { route: string; method: string; status: string }) {}

  observe(seconds: number): void {
    this.count++;
    this.sum += seconds;
    let i = 0;
    while (i < LATENCY_BUCKETS_SECONDS.length && seconds > LATENCY_BUCKETS_SECONDS[i]!) i++;
    this.buckets[i]!++;
  }
}

interface Sample {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** What prom-client's Registry asks of a metric when it renders /metrics. */
interface Collector {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }>;
  reset(): void;
}

export class RequestMetrics {
  readonly #series = new Map<string, RequestSeries>();
  /**
   * The same series by route, method and status: three lookups of strings V8 has already hashed
   * (route templates and method names are the same string objects every time) and a number,
   * instead of a key string built and hashed on every request.
   */
  readonly #byRoute = new Map<string, Map<string, Map<number, RequestSeries>>>();

  /** The series of one (route, method, status); routes and statuses are finite, so is the map. */
  series(route: string, method: string, status: number): RequestSeries {
    const s = this.#byRoute.get(route)?.get(method)?.get(status);
    return s ?? this.#create(route, method, status);
  }

  #create(route: string, method: string, status: number): RequestSeries {
    const key = `${route} ${method} ${status}`;
    let s = this.#series.get(key);
    if (s === undefined) {
      s = new RequestSeries({ route, method, status: String(status) });
      this.#series.set(key, s);
    }
    let byMethod = this.#byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#byRoute.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    byStatus.set(status, s);
    return s;
  }

  /** The counter and the histogram, for a prom-client Registry (registerMetric). */
  collectors(names: { requests: string; latency: string }): Collector[] {
    const all = () => [...this.#series.values()];
    const collector = (
      name: string,
      help: string,
      type: 'counter' | 'histogram',
      values: () => Sample[],
    ): Collector => ({
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
      reset: () => {
        this.#series.clear();
        this.#byRoute.clear();
      },
    });
    return [
      collector(names.requests, 'HTTP requests by route template, method and status', 'counter', () =>
        all().map((s) => ({ value: s.count, labels: s.labels })),
      ),
      collector(names.latency, 'HTTP request latency by route template and status', 'histogram', () =>
        all().flatMap((s) => {
          let cumulative = 0;
          const buckets: Sample[] = LATENCY_BUCKETS_SECONDS.map((le, i) => {
            cumulative += s.buckets[i]!;
            return { value: cumulative, labels: { ...s.labels, le }, metricName: `${names.latency}_bucket` };
          });
          buckets.push({ value: s.count, labels: { ...s.labels, le: '+Inf' }, metricName: `${names.latency}_bucket` });
          buckets.push({ value: s.sum, labels: s.labels, metricName: `${names.latency}_sum` });
          buckets.push({ value: s.count, labels: s.labels, metricName: `${names.latency}_count` });
          return buckets;
        }),
      ),
    ];
  }
}
