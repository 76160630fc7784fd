import { defineFeature } from '../../feature-kit/feature.js';
import { eventMerchantRoutes } from './routes.js';
import type { Store } from '../../store/store.js';
import { eventService } from './service.js';
import { eventStreams, type StreamOptions } from './stream.js';
import { WakeBus } from './wakeup.js';
import { eventsMigrations } from './tables.js';

export interface EventsFeatureOptions {
  store: Store;
  /** Event streams: how often one looks at the store when nothing woke it (tests). */
  streams?: Pick<StreamOptions, 'pollMs' | 'recheckMs'>;
  /** PostgreSQL: where the workers and event streams LISTEN for wake-ups (wakeup.ts). SQLite needs nothing. */
  postgres?: { url: string; schema: string };
}

/**
 * Events, wired once: the events API, the Server-Sent Events streams and the wake-up bus that
 * commits ring. Others follow the outbox through `subscribeToOutbox` (outbox.ts) and the bus's
 * `deliveries` subscription (webhooks).
 */
export function createEvents(opts: EventsFeatureOptions) {
  // Commits wake the delivery workers and the event streams of this store (wakeup.ts).
  const bus = new WakeBus(opts.store, opts.postgres);
  const streams = eventStreams(opts.store.db, { wakeups: bus, ...opts.streams });
  return {
    events: eventService(opts.store.db),
    /** Open Server-Sent Events streams of events (`hostpay listen`). */
    streams,
    /** Subscribes to "deliveries were queued" wake-ups (the webhook workers). */
    deliveries: bus.deliveries,
    async close() {
      streams.closeAll();
      await bus.close();
    },
  };
}

export type Events = ReturnType<typeof createEvents>;

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** Events API, event streams and the wake-ups of commits. */
    events: Events;
  }
  interface FeatureOptions {
    /** Event stream timings (tests). */
    events?: Pick<EventsFeatureOptions, 'streams'>;
  }
}

export const eventsFeature = defineFeature({
  name: 'events',
  migrations: eventsMigrations,
  needs: ['store', 'config', 'options'],
  provides: ['events'],
  create({ store, config, options }) {
    const events = createEvents({
      store,
      ...options.events,
      ...(store.dialect === 'postgres'
        ? { postgres: { url: config.databaseUrl, schema: config.databaseSchema ?? '' } }
        : {}),
    });
    return { events, close: () => events.close() };
  },
  merchantRoutes: [eventMerchantRoutes],
});
