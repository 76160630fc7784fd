import { defineFeature } from '../../feature-kit/feature.js';
import { eventMerchantRoutes } from './routes.js';
import type { Store } from '../../store/store.js';
import { outbox, type Outbox, type OutboxSubscriber } from './outbox.js';
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
  /** What commits with every appended event: the `outboxSubscribers` contributions (webhooks'). */
  subscribers?: () => readonly OutboxSubscriber[];
}

/**
 * Events, wired once: the events API, the Server-Sent Events streams and the wake-up bus that
 * commits ring, and the outbox every feature appends its events through. Others follow the
 * outbox by contributing to `outboxSubscribers` (outbox.ts) and through the bus's `deliveries`
 * subscription (webhooks).
 */
export function createEvents(opts: EventsFeatureOptions) {
  // Commits wake the delivery workers and the event streams of this store (wakeup.ts).
  const bus = new WakeBus(opts.store, opts.postgres);
  const streams = eventStreams(opts.store.db, { wakeups: bus, ...opts.streams });
  const subscribers = opts.subscribers ?? (() => []);
  return {
    events: eventService(opts.store.db),
    /** Appends events with what every subscriber owes them (outbox.ts). */
    outbox: outbox(subscribers),
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
    /** The outbox: every feature that reports a change appends its event here, in its transaction. */
    outbox: Outbox;
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
  provides: ['events', 'outbox'],
  // The work that commits with every appended event (the webhooks' deliveries).
  consumes: ['outboxSubscribers'],
  create({ store, config, options }, contributed) {
    const events = createEvents({
      store,
      subscribers: contributed.outboxSubscribers,
      ...options.events,
      ...(store.dialect === 'postgres'
        ? { postgres: { url: config.databaseUrl, schema: config.databaseSchema ?? '' } }
        : {}),
    });
    return { events, outbox: events.outbox, close: () => events.close() };
  },
  merchantRoutes: [eventMerchantRoutes],
});
