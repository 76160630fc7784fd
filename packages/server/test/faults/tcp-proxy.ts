import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis), for fault tests.
 *
 * Why a proxy: the PostgreSQL and Redis at 127.0.0.1 are shared with the rest of the suite, with
 * other test runs and with CI, so a test must never stop, pause or reconfigure them. The server
 * under test is pointed at this proxy instead, and the proxy takes the dependency away from that
 * one server only, the ways a client can see it go:
 *
 * - `cut()`: the database was stopped. Every open connection is destroyed (the client sees its
 *   socket close, mid-query if one was running) and the listening socket is closed, so new
 *   connections are refused (ECONNREFUSED). Stalled connections are destroyed too.
 * - `stall()`: the database (or the network to it) stops answering without closing anything, as
 *   behind a partition or a frozen host. Open connections stop forwarding in both directions, and
 *   new connections are accepted but never forwarded. Stalled connections stay stalled for good,
 *   even after `restore()`: nothing ever tells the client they are dead, so it must give up on
 *   them by itself.
 * - `restore()`: new connections are forwarded again (listening on the same port after a cut).
 * - `delayMs`: each chunk from the client is held this long before it is forwarded (a slow
 *   network or a slow database), to keep requests in flight at the moment of a fault.
 */
export interface TcpProxy {
  readonly host: string;
  readonly port: number;
  /** Connections currently forwarded (stalled ones excluded). */
  readonly openConnections: number;
  /** Connections accepted since the proxy started. */
  readonly acceptedConnections: number;
  /** Delay applied to client→server data, ms. */
  delayMs: number;
  cut(): Promise<void>;
  stall(): void;
  restore(): Promise<void>;
  /** Destroys every connection, stalled ones included, and stops listening. */
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | undefined;
  stalled: boolean;
}

export async function startTcpProxy(
  target: { host: string; port: number },
  options: { delayMs?: number } = {},
): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let accepted = 0;
  let server: Server | undefined;
  let port = 0;
  let stalled = false;

  const destroy = (pair: Pair): void => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  const freeze = (pair: Pair): void => {
    pair.stalled = true;
    pair.client.pause();
    pair.upstream?.unpipe(pair.client);
    pair.upstream?.pause();
  };

  const onConnection = (client: Socket): void => {
    accepted++;
    const pair: Pair = { client, upstream: undefined, stalled: false };
    pairs.add(pair);
    client.on('error', () => destroy(pair)).on('close', () => destroy(pair));
    if (stalled) {
      // Accepted by the kernel, never answered: the client's connect timeout must fire.
      freeze(pair);
      return;
    }
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    upstream.on('error', () => destroy(pair)).on('close', () => destroy(pair));
    // Data the client sends before the upstream connection opens is buffered by `upstream`.
    client.on('data', (chunk: Buffer) => {
      if (pair.stalled) return;
      if (proxy.delayMs <= 0) {
        upstream.write(chunk);
        return;
      }
      client.pause();
      setTimeout(() => {
        if (pair.stalled || upstream.destroyed) return;
        upstream.write(chunk);
        client.resume();
      }, proxy.delayMs);
    });
    upstream.pipe(client);
  };

  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const s = createServer(onConnection);
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        s.removeListener('error', reject);
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });

  const stopListening = (): Promise<void> =>
    new Promise((resolve) => {
      for (const pair of [...pairs]) destroy(pair);
      const s = server;
      server = undefined;
      if (s === undefined) resolve();
      else s.close(() => resolve());
    });

  const proxy: TcpProxy = {
    host: '127.0.0.1',
    get port() {
      return port;
    },
    get openConnections() {
      return [...pairs].filter((p) => !p.stalled).length;
    },
    get acceptedConnections() {
      return accepted;
    },
    delayMs: options.delayMs ?? 0,
    cut: () => stopListening(),
    stall() {
      stalled = true;
      for (const pair of pairs) freeze(pair);
    },
    async restore() {
      stalled = false;
      if (server !== undefined) return;
      // The port was ours a moment ago; retry briefly in case the OS has not released it yet.
      for (let attempt = 0; ; attempt++) {
        try {
          await listen();
          return;
        } catch (err) {
          if (attempt >= 20) throw err;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    },
    close: () => stopListening(),
  };
  await listen();
  return proxy;
}
