import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CacheScope } from '../cache/caches.js';

/** How often the subscription connection is checked. */
const HEARTBEAT_MS = 1000;

/**
 * Tells the other instances which caches a write made stale. Each message carries the sender's
 * id so an instance ignores its own. While the subscription is down, messages are missed, so the
 * receiver drops every cache when it comes back (`onResync`) and caches are bypassed meanwhile.
 */
export class RedisChangeFeed {
  readonly instanceId = randomBytes(8).toString('hex');
  #ready = false;
  readonly #heartbeat: NodeJS.Timeout;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly onRemote: (scope: CacheScope) => void,
    private readonly channel: string,
  ) {
    subscriber.on('message', (_channel: string, text: string) => {
      try {
        const msg = JSON.parse(text) as { from: string; scope: CacheScope };
        if (msg.from !== this.instanceId) this.onRemote(msg.scope);
      } catch {
        this.onRemote({ kind: 'all' });
      }
    });
    subscriber.on('ready', () => {
      void subscriber.subscribe(this.channel).then(
        () => {
          this.#ready = true;
          this.onRemote({ kind: 'all' });
        },
        () => undefined,
      );
    });
    subscriber.on('close', () => {
      this.#ready = false;
    });
    // A subscription only reads, so a connection that died silently (network partition, frozen
    // host) would never be noticed and its missed invalidations never resynced: caches would be
    // served stale for good. A PING now and then gives the socket timeout (redis.ts) an answer
    // to wait for; a silent connection is dropped, then resubscribed like a closed one.
    this.#heartbeat = setInterval(() => {
      if (this.#ready) subscriber.ping().catch(() => undefined);
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** True while invalidations from other instances are being received. */
  get ready(): boolean {
    return this.#ready;
  }

  /**
   * Resolves once Redis has taken the message (it is then queued to every subscriber), or once
   * sending failed; never rejects. A write that awaits this before answering guarantees that a
   * client who got the answer and asks another instance next finds it invalidated: that request
   * reaches Redis (rate limit) after the message, so the message is read first.
   */
  publish(scope: CacheScope): Promise<void> {
    return this.publisher.publish(this.channel, JSON.stringify({ from: this.instanceId, scope })).then(
      () => undefined,
      () => undefined,
    );
  }

  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}
