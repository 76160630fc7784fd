import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CacheScope } from '../cache/caches.js';
import { readFeedMessage } from './feed-message.js';

/** How often the subscription connection is checked. */
const HEARTBEAT_MS = 1000;

/**
 * How long a write waits for the other instances to confirm they dropped what it changed. Past
 * it the write answers anyway, and later writes stop waiting for as many instances as stayed
 * silent (`#check`): Redis keeps counting a frozen or cut-off instance as a subscriber until its
 * socket is dropped, minutes later, and every write would otherwise wait this long meanwhile.
 */
export const ACK_WAIT_MS = 1000;

interface Waiting {
  /** Receipts so far: this instance's own copy of the message, and each other instance's ack. */
  seen: number;
  /** How many subscribers Redis delivered the message to; unknown until PUBLISH answers. */
  expected: number;
  resolve: () => void;
  /** The write was answered (its promise resolved) and the entry only counts late acks. */
  answered: boolean;
  timer: NodeJS.Timeout;
}

/**
 * Tells the other instances which caches a write made stale, and waits until each of them has
 * dropped them: every instance that receives a message invalidates (synchronously, in the
 * message callback) and then acks on the sender's own ack channel; PUBLISH says how many
 * subscribers got it. So when a write answers, no instance still holds what it replaced, and a
 * request sent after the answer, to any instance, by any route (fast path and reserved rate-limit
 * numbers included), sees the write. Redis alone does not give that: a message queued to a busy
 * instance can be read after a request that arrived later on another socket.
 *
 * While the subscription is down, messages are missed, so the receiver drops every cache when it
 * comes back (`onRemote({ kind: 'all' })`) and caches are bypassed meanwhile.
 */
export class RedisChangeFeed {
  readonly instanceId = randomBytes(8).toString('hex');
  #ready = false;
  #sequence = 0;
  #ackTimeouts = 0;
  /** Instances the last timed-out write heard nothing from; 0 again once a write hears from all. */
  #silent = 0;
  readonly #waiting = new Map<string, Waiting>();
  readonly #heartbeat: NodeJS.Timeout;
  readonly #ackChannel: string;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly onRemote: (scope: CacheScope) => void,
    private readonly channel: string,
    private readonly options: { ackWaitMs?: number; onAckTimeout?: () => void } = {},
  ) {
    this.#ackChannel = `${channel}:ack:${this.instanceId}`;
    subscriber.on('message', (from: string, text: string) => {
      if (from === this.#ackChannel) this.#receipt(text);
      else this.#received(text);
    });
    subscriber.on('ready', () => {
      void subscriber.subscribe(this.channel, this.#ackChannel).then(
        () => {
          this.#ready = true;
          this.onRemote({ kind: 'all' });
        },
        () => undefined,
      );
    });
    subscriber.on('close', () => {
      this.#ready = false;
      // No ack can reach this instance now: nobody waits the full ACK_WAIT_MS for nothing.
      this.#settleAll();
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

  /** Writes that answered without every instance's ack (ACK_WAIT_MS passed). */
  get ackTimeouts(): number {
    return this.#ackTimeouts;
  }

  /**
   * Resolves once every instance subscribed when Redis took the message has dropped what it
   * names (this one counts by reading its own copy), or once ACK_WAIT_MS passed, or at once when
   * sending failed or this instance's subscription is down (no acks could reach it); never
   * rejects. A write awaits this before answering.
   */
  publish(scope: CacheScope): Promise<void> {
    const id = String(++this.#sequence);
    const text = JSON.stringify({ from: this.instanceId, id, scope });
    if (!this.#ready) return this.publisher.publish(this.channel, text).then(noop, noop);
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.#timedOut(id), this.options.ackWaitMs ?? ACK_WAIT_MS);
      timer.unref();
      const waiting: Waiting = { seen: 0, expected: Number.POSITIVE_INFINITY, resolve, answered: false, timer };
      this.#waiting.set(id, waiting);
      this.publisher.publish(this.channel, text).then(
        (receivers) => {
          if (this.#waiting.get(id) !== waiting) return;
          waiting.expected = receivers;
          this.#check(id, waiting);
        },
        () => this.#settle(id),
      );
    });
  }

  #received(text: string): void {
    const msg = readFeedMessage(text);
    if (msg === null) {
      this.onRemote({ kind: 'all' });
      return;
    }
    if (msg.from === this.instanceId) {
      if (msg.id !== undefined) this.#receipt(msg.id);
      return;
    }
    this.onRemote(msg.scope);
    // Only after the caches are dropped: the sender answers its client when every ack is in.
    if (msg.id !== undefined && /^[0-9a-f]{16}$/.test(msg.from)) {
      this.publisher.publish(`${this.channel}:ack:${msg.from}`, msg.id).catch(noop);
    }
  }

  #receipt(id: string): void {
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return;
    waiting.seen++;
    this.#check(id, waiting);
  }

  /**
   * Answers the write once every counted instance has acked, or all but those found silent by an
   * earlier write's timeout (a frozen or cut-off instance stays counted by Redis until its socket
   * is dropped, minutes later: without this, every write would wait out ACK_WAIT_MS meanwhile).
   * The entry stays until every ack is in or the timer ends, so a silent instance that answers
   * again is counted again.
   */
  #check(id: string, waiting: Waiting): void {
    if (waiting.seen >= waiting.expected) {
      this.#silent = 0;
      this.#settle(id);
    } else if (!waiting.answered && waiting.seen >= waiting.expected - this.#silent) {
      waiting.answered = true;
      waiting.resolve();
    }
  }

  #timedOut(id: string): void {
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return;
    if (Number.isFinite(waiting.expected)) this.#silent = Math.max(0, waiting.expected - waiting.seen);
    if (!waiting.answered) {
      this.#ackTimeouts++;
      this.options.onAckTimeout?.();
    }
    this.#settle(id);
  }

  #settle(id: string): void {
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return;
    this.#waiting.delete(id);
    clearTimeout(waiting.timer);
    if (!waiting.answered) waiting.resolve();
  }

  #settleAll(): void {
    for (const id of [...this.#waiting.keys()]) this.#settle(id);
  }

  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    this.#settleAll();
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}

function noop(): void {}
