import type { Command } from 'commander';
import type { Config, Services } from '@hostpay/server';
import { configFrom, loadServer, openServices, type ServiceLog } from '../context.js';
import { demoBanner, demoCommands, type DemoInfo } from '../demo-banner.js';
import { printResult, type Io } from '../output.js';
import { integerIn, withStoreOptions, type StoreOptions } from '../options.js';
import { requestToken } from '../token-request.js';

interface ServeOptions extends StoreOptions {
  demo?: boolean;
  host?: string;
  port?: number;
}

export function registerServe(program: Command, io: Io): void {
  withStoreOptions(program.command('serve').description('run the HTTP server'))
    .option('--demo', 'sandbox: generate the master key if needed, seed a demo merchant once, print credentials and requests to try')
    .option('--host <host>', 'address to listen on (default: $HOSTPAY_HOST or 127.0.0.1)')
    .option('--port <port>', 'port to listen on, 0 for any free port (default: $HOSTPAY_PORT or 8080)', integerIn(0, 65_535))
    .addHelpText('after', '\nLogs go to stderr; stdout carries only the start-up summary (one JSON document with --json).\nSIGTERM or Ctrl-C drains in-flight requests, closes the store and exits.')
    .action((opts: ServeOptions) => serve(io, opts));
}

/**
 * Starts the server and returns once it listens; the process then lives as long as the server.
 * startServer's SIGTERM/SIGINT handler drains requests and closes the app, whose onClose hook
 * (added here) closes the store before the process exits.
 */
async function serve(io: Io, opts: ServeOptions): Promise<void> {
  const { buildApp, startServer } = await import('../server-http.js');
  const config = await configFrom(io, { dataDir: opts.dataDir, host: opts.host, port: opts.port, ...(opts.demo === true ? { sandbox: true } : {}) });
  // Only the sandbox may invent a master key; a real deployment must be given one.
  const serviceLog = heldLog();
  const services = await openServices(io, config, opts.demo === true, serviceLog);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    // Logs on stderr keep stdout for the summary, so `--json` output stays one document.
    const app = await buildApp({ config, services: services.merchant, admin: services.admin, rateLimiter: services.shared.rateLimiter, redisState: () => services.shared.redis, storeDialect: services.store.dialect, logger: { stream: process.stderr } });
    serviceLog.attach(app.log);
    app.addHook('onClose', async () => services.close());
    server = await startServer(app, { host: config.host, port: config.port });
  } catch (err) {
    await services.close();
    throw err;
  }
  try {
    await announce(io, opts, config, services, server.url);
  } catch (err) {
    await server.close();
    throw err;
  }
}

/**
 * The services' events (Redis unreachable, Redis back) go to the server's log, as JSON lines at
 * their level like every other line, so log collectors and alerts see them. The services start
 * before the app and its logger exist: events of that moment are held until `attach`.
 */
function heldLog(): ServiceLog & { attach(target: ServiceLog): void } {
  const held: [level: 'warn' | 'info', message: string][] = [];
  let target: ServiceLog | undefined;
  const emit = (level: 'warn' | 'info', message: string): void => {
    if (target === undefined) held.push([level, message]);
    else target[level](message);
  };
  return {
    warn: (message) => emit('warn', message),
    info: (message) => emit('info', message),
    attach(logger) {
      target = logger;
      for (const [level, message] of held.splice(0)) logger[level](message);
    },
  };
}

async function announce(io: Io, opts: ServeOptions, config: Config, services: Services, url: string): Promise<void> {
  const docsUrl = `${url}/docs`;
  if (opts.demo !== true) {
    printResult(io, opts.json, { url, docsUrl, dataDir: config.dataDir }, () => `hostpay listening on ${url} (API docs ${docsUrl})`);
    return;
  }
  const demo = await (await loadServer()).seedDemo(services, config.dataDir);
  // Through the real HTTP path, so the printed token proves signing and the token route work.
  const token = await requestToken({ baseUrl: url, apiKey: demo.apiKey, apiSecret: demo.apiSecret, token: undefined });
  const info: DemoInfo = { url, dataDir: config.dataDir, created: demo.created, merchantId: demo.merchantId, apiKey: demo.apiKey, apiSecret: demo.apiSecret, token };
  const { env, requests } = demoCommands(info);
  const demoJson = { created: demo.created, merchantId: demo.merchantId, apiKey: demo.apiKey, apiSecret: demo.apiSecret, token, env, requests };
  printResult(io, opts.json, { url, docsUrl, dataDir: config.dataDir, demo: demoJson }, () => demoBanner(info));
}
