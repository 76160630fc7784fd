import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { settleMemoryWhenIdle } from './observability/settle-memory.js';

export interface ListenOptions {
  host: string;
  port: number;
  /** Longest a request may take from first byte to response, ms. Default 30 000. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open, ms. Default 65 000 (above common LB idle timeouts). */
  keepAliveTimeoutMs?: number;
  /** Longest a graceful shutdown waits for in-flight requests before exiting anyway, ms. Default 10 000. */
  shutdownTimeoutMs?: number;
  /** Install SIGTERM/SIGINT handlers that close gracefully. Default true. */
  handleSignals?: boolean;
  /** HOSTPAY_METRICS_PORT/HOST: a listener of its own for GET /metrics; port -1 or absent: none. */
  metrics?: { port: number; host: string };
  /**
   * One compacting garbage collection in the first idle second after start, which hands back the
   * memory the start-up used (observability/settle-memory.ts). Default true.
   */
  settleMemory?: boolean;
}

export interface RunningServer {
  url: string;
  /** Where the metrics listener serves GET /metrics, when there is one. */
  metricsUrl?: string;
  /** Stops accepting connections, lets in-flight requests finish, then runs the app's onClose hooks. */
  close(): Promise<void>;
}

/**
 * Listens with production timeouts and shuts down on SIGTERM/SIGINT: stop accepting, drain,
 * close (Fastify closes idle keep-alive sockets and runs onClose hooks such as the store's).
 */
export async function startServer(app: FastifyInstance, options: ListenOptions): Promise<RunningServer> {
  const server = app.server;
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 65_000;
  // Must exceed keepAliveTimeout, or Node may cut a connection a client is about to reuse.
  server.headersTimeout = server.keepAliveTimeout + 1_000;

  const address = await app.listen({ host: options.host, port: options.port });
  const url = address.replace('[::1]', 'localhost');
  let metricsServer: Server | undefined;
  let metricsUrl: string | undefined;
  if (options.metrics !== undefined && options.metrics.port >= 0) {
    try {
      ({ server: metricsServer, url: metricsUrl } = await listenForMetrics(app, options.metrics));
    } catch (err) {
      await app.close();
      throw err;
    }
    const opened = metricsServer;
    // However the app is closed (signal, close(), a test's app.close()), its listener goes with it.
    server.once('close', () => {
      opened.close();
      opened.closeAllConnections();
    });
  }

  const settling =
    (options.settleMemory ?? true)
      ? settleMemoryWhenIdle({
          onSettled: ({ rssBefore, rssAfter, ms }) =>
            app.log.info(
              {
                rssBeforeMb: Math.round(rssBefore / 1048576),
                rssAfterMb: Math.round(rssAfter / 1048576),
                ms: Math.round(ms),
              },
              'idle after start: heap compacted',
            ),
        })
      : undefined;
  server.once('close', () => settling?.cancel());

  let closing: Promise<void> | undefined;
  let removeSignalHandlers = (): void => {};
  const close = (): Promise<void> => {
    removeSignalHandlers();
    settling?.cancel();
    // server.close() waits for every open connection. A request still running when the drain
    // starts is answered as keep-alive, and its connection would then idle for keepAliveTimeout
    // (65 s), past the shutdown timeout. Node arms that idle timer from this property when each
    // response ends, so lowering it closes such a connection about a second after its answer
    // (a request sent on it meanwhile is still served, with Connection: close).
    server.keepAliveTimeout = 1;
    closing ??= app.close();
    return closing;
  };

  if (options.handleSignals ?? true) {
    const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;
    const onSignal = (signal: NodeJS.Signals): void => {
      app.log.info({ signal }, 'shutting down: draining in-flight requests');
      const timer = setTimeout(() => {
        app.log.error('shutdown timed out; exiting with requests still open');
        process.exit(1);
      }, shutdownTimeoutMs);
      timer.unref();
      close().then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'error while shutting down');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    removeSignalHandlers = () => {
      process.removeListener('SIGTERM', onSignal);
      process.removeListener('SIGINT', onSignal);
    };
  }
  return { url, close, ...(metricsUrl === undefined ? {} : { metricsUrl }) };
}

/**
 * GET /metrics and nothing else, without authentication: it listens on loopback by default, for a
 * scraper on the same host (or a monitoring network the operator chose with HOSTPAY_METRICS_HOST).
 */
async function listenForMetrics(
  app: FastifyInstance,
  at: { port: number; host: string },
): Promise<{ server: Server; url: string }> {
  // getBuiltinModule, not an import: see outbound/agents.ts (an ES import of node:http loads undici).
  const server = process.getBuiltinModule('node:http').createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('only GET /metrics is served here\n');
      return;
    }
    app.hostpayMetrics.text().then(
      (text) => {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        app.log.error({ err }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics scrape failed\n');
      },
    );
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as { port: number; address: string; family: string };
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return { server, url: `http://${host}:${bound.port}/metrics` };
}
