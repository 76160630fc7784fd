import { Gauge, Histogram, type Metric } from 'prom-client';
import type { Store } from '../../store/store.js';
import { listRateRows } from './queries.js';
import { quoteOfRow, rateAge } from './quote.js';

/** The rate feeds' metrics on this instance. Created unregistered; /metrics adds them. */
export class RateMetrics {
  readonly age: Gauge<'base' | 'quote'>;
  readonly up = new Gauge({
    name: 'hostpay_rate_source_up',
    help: "1 when the rate source's last refresh on this instance succeeded, 0 when it failed",
    labelNames: ['source'] as const,
    registers: [],
  });
  readonly latency = new Histogram({
    name: 'hostpay_rate_refresh_duration_seconds',
    help: 'Time a rate source took to answer a refresh, by source (failed refreshes included)',
    labelNames: ['source'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [],
  });

  constructor(store: Store, now: () => number) {
    this.age = new Gauge({
      name: 'hostpay_rate_age_seconds',
      help: 'Age of each stored exchange rate (since its source answered), by pair; read from the store at scrape time',
      labelNames: ['base', 'quote'] as const,
      registers: [],
      // Ages grow with time, not with writes: read at scrape time, so every instance reports the truth.
      async collect() {
        const rows = await listRateRows(store.db).catch(() => []);
        this.reset();
        for (const r of rows) this.set({ base: r.base, quote: r.quote }, rateAge(quoteOfRow(r), now()).ageSeconds);
      },
    });
  }

  collectors(): Metric[] {
    return [this.age, this.up, this.latency] as unknown as Metric[];
  }
}
