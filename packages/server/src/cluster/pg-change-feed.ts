import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { CacheScope } from '../cache/caches.js';
import { readFeedMessage } from './feed-message.js';

const HEARTBEAT_MS = 1000;
const RECONNECT_MS = 1000;

/**
 * The change feed without Redis, on PostgreSQL's own LISTEN/NOTIFY: a write announces what it
 * made stale with `pg_notify` on the store, and every process on the same database — another
 * instance, or the CLI writing directly — is told within milliseconds. One dedicated connection
 * listens; while it is down the caches are bypassed, and when it is back every cache is dropped
 * once, since notifications may have been missed.
 */
export class PgChangeFeed {
  readonly instanceId = randomBytes(8).toString('hex');
  #client: pg.Client | undefined;
  #ready = false;
  #closed = false;
  readonly #heartbeat: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    /** Channel name: one per schema, so deployments (and test runs) sharing a database stay apart. */
    readonly channel: string,
    private readonly notify: (channel: string, payload: string) => Promise<void>,
    private readonly onRemote: (scope: CacheScope) => void,
  ) {
    void this.connect();
    // LISTEN only reads: a silently dead connection would never error. A query now and then does.
    this.#heartbeat = setInterval(() => {
      const client = this.#client;
      if (this.#ready && client)
        client
          .query({ text: 'select 1', query_timeout: HEARTBEAT_MS } as pg.QueryConfig)
          .catch(() => this.drop(client));
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  get ready(): boolean {
    return this.#ready;
  }

  /** Resolves once the notification is committed, or sending failed; never rejects. */
  publish(scope: CacheScope): Promise<void> {
    return this.notify(this.channel, JSON.stringify({ from: this.instanceId, scope })).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    const client = this.#client;
    this.#client = undefined;
    this.#ready = false;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 2000 });
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    client.on('notification', (n) => {
      if (n.channel !== this.channel) return;
      const msg = readFeedMessage(n.payload ?? '');
      if (msg === null) this.onRemote({ kind: 'all' });
      else if (msg.from !== this.instanceId) this.onRemote(msg.scope);
    });
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      if (this.#client !== client) return;
      this.#ready = true;
      this.onRemote({ kind: 'all' });
    } catch {
      this.drop(client);
    }
  }

  private drop(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#ready = false;
    client.end().catch(() => undefined);
    if (!this.#closed) setTimeout(() => void this.connect(), RECONNECT_MS).unref();
  }
}
