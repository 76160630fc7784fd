import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CacheScope } from '../services/caches.js';


/**
 * Tells the other instances which caches a write made stale. Each message carries the sender's
 * id so an instance ignores its own. While the subscription is down, messages are missed, so the
 * receiver drops every cache when it comes back (`onResync`) and caches are bypassed meanwhile.
 */
export class RedisChangeFeed {
  readonly instanceId = randomBytes(8).toString('hex');
  #ready = false;

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
  }

  /** True while invalidations from other instances are being received. */
  get ready(): boolean {
    return this.#ready;
  }

  publish(scope: CacheScope): void {
    this.publisher.publish(this.channel, JSON.stringify({ from: this.instanceId, scope })).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}
