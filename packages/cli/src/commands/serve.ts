import type { Command } from 'commander';
import { flushCompileCache } from 'node:module';
import type { Config, Services } from '@hostpay/server';
import { configFrom, loadServer, warnIfGeneratedMasterKey, type ServiceLog } from '../context.js';
import { demoBanner, demoCommands, type DemoInfo } from '../demo-banner.js';
import { printResult, type Io } from '../output.js';
import { integerIn, withStoreOptions, type StoreOptions } from '../options.js';
import { requestToken } from '../token-request.js';

interface ServeOptions extends StoreOptions {
  demo?: boolean;
  sandbox?: boolean;
  host?: string;
  port?: number;
}

export function registerServe(program: Command, io: Io): void {
  withStoreOptions(program.command('serve').description('run the HTTP server'))
    .option(
      '--demo',
      'sandbox: generate the master key if needed, seed a demo merchant once, print credentials and requests to try',
    )
    .option(
      '--sandbox',
      'a test deployment (as HOSTPAY_SANDBOX=true): diagnostic authentication errors and the sandbox-only features; --demo implies it',
    )
    .option('--host <host>', 'address to listen on (default: $HOSTPAY_HOST or 127.0.0.1)')
    .option(
      '--port <port>',
      'port to listen on, 0 for any free port (default: $HOSTPAY_PORT or 8080)',
      integerIn(0, 65_535),
    )
    .addHelpText(
      'after',
      '\nLogs go to stderr; stdout carries only the start-up summary (one JSON document with --json).\nSIGTERM or Ctrl-C drains in-flight requests, closes the store and exits.',
    )
    .action((opts: ServeOptions) => serve(io, opts));
}

/**
 * Starts the server and returns once it listens; the process then lives as long as the server.
 * startServer's SIGTERM/SIGINT handler drains requests and closes the app, whose onClose hook
 * (added here) closes the store before the process exits.
 */
async function serve(io: Io, opts: ServeOptions): Promise<void> {
  const { createServer } = await import('../server-http.js');
  let config = await configFrom(io, {
    dataDir: opts.dataDir,
    host: opts.host,
    port: opts.port,
    ...(opts.demo === true || opts.sandbox === true ? { sandbox: true } : {}),
  });
  if (opts.demo === true) {
    // The demo shows the operator console: on unless HOSTPAY_CONSOLE says otherwise, with an
    // operator token of the data directory's own when none is configured.
    const { demoOperatorToken } = await loadServer();
    config = {
      ...config,
      ...(io.env.HOSTPAY_CONSOLE === undefined || io.env.HOSTPAY_CONSOLE === '' ? { console: true } : {}),
      ...(config.adminToken === '' && config.adminTokens === ''
        ? { adminToken: demoOperatorToken(config.dataDir) }
        : {}),
    };
  }
  const serviceLog = heldLog();
  // The demo banner is read by a person in the same terminal: log lines of the start-up (the
  // banner's own token request among them) wait until it is printed, then follow it.
  const logs = heldStream(process.stderr, opts.demo === true);
  // Only the sandbox may invent a master key; a real deployment must be given one. Logs go to
  // stderr, keeping stdout for the summary, so `--json` output stays one document.
  const hostpay = await createServer(config, {
    generateMasterKey: opts.demo === true,
    serving: true,
    log: serviceLog,
    logger: { stream: logs },
  });
  warnIfGeneratedMasterKey(io, config, hostpay.services);
  serviceLog.attach(hostpay.app.log);
  let server: Awaited<ReturnType<typeof hostpay.listen>>;
  try {
    server = await hostpay.listen();
  } catch (err) {
    await hostpay.close();
    throw err;
  }
  // With NODE_COMPILE_CACHE set (docs/deploy.md), write Node's compile cache now that start-up has
  // compiled what it needs, not only at exit: a server stopped with kill -9 would never keep it. A
  // second later, so it does not delay the first requests. Without it, this does nothing.
  setTimeout(() => flushCompileCache(), 1000).unref();
  try {
    await announce(io, opts, config, hostpay.services, server.url);
  } catch (err) {
    await server.close();
    throw err;
  } finally {
    logs.release();
  }
}

/** A log destination that holds what is written until `release` (when `hold`), then passes it through. */
function heldStream(target: NodeJS.WritableStream, hold: boolean): { write(line: string): void; release(): void } {
  let held: string[] | undefined = hold ? [] : undefined;
  return {
    write(line) {
      if (held === undefined) target.write(line);
      else held.push(line);
    },
    release() {
      if (held === undefined) return;
      const lines = held;
      held = undefined;
      for (const line of lines) target.write(line);
    },
  };
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

/**
 * What this instance runs on, for the start-up summary: the store (SQLite file, or PostgreSQL URL
 * without its password, and schema) and Redis (URL without password, key prefix) or none, so an
 * operator starting several instances sees at once whether they share the same ones.
 */
async function backends(config: Config): Promise<{ store: string; redis: string }> {
  const { redactUrl, sqliteFile } = await loadServer();
  const store = /^postgres(ql)?:\/\//.test(config.databaseUrl)
    ? `PostgreSQL ${redactUrl(config.databaseUrl)} (schema ${config.databaseSchema === '' ? 'public' : config.databaseSchema})`
    : `SQLite ${sqliteFile(config)}`;
  const redis =
    config.redisUrl === ''
      ? 'none (rate limits and cache invalidation of this instance only)'
      : `${redactUrl(config.redisUrl)} (prefix ${config.redisPrefix})`;
  return { store, redis };
}

async function announce(io: Io, opts: ServeOptions, config: Config, services: Services, url: string): Promise<void> {
  const docsUrl = `${url}/docs`;
  const { store, redis } = await backends(config);
  if (opts.demo !== true) {
    const what = config.sandbox ? 'hostpay sandbox (test deployment: never for real payments)' : 'hostpay';
    // The instance id names this process in the leases it holds: two running instances must differ.
    const instanceId = services.identity.id;
    printResult(
      io,
      opts.json,
      { url, docsUrl, dataDir: config.dataDir, instanceId, store, redis, sandbox: config.sandbox },
      () =>
        `${what} listening on ${url} (API docs ${docsUrl})\n  instance  ${instanceId} (data ${config.dataDir})\n  store     ${store}\n  redis     ${redis}`,
    );
    return;
  }
  const server = await loadServer();
  const demo = await server.seedDemo(services, config.dataDir);
  await server.seedDemoRates(services);
  // Checkouts are seeded once, with the data, after listening: their page links use this address.
  if (demo.created) await server.seedDemoCheckouts(services, demo.merchantId);
  const checkoutUrl = await server.demoCheckoutUrl(services, demo.merchantId);
  // Through the real HTTP path, so the printed token proves signing and the token route work.
  const token = await requestToken({ baseUrl: url, apiKey: demo.apiKey, apiSecret: demo.apiSecret, token: undefined });
  const dashboard = await server.demoDashboard(services, demo.merchantId, url);
  const consoleInfo =
    config.console && config.adminToken !== ''
      ? { url: `${url}/console`, operatorToken: config.adminToken }
      : undefined;
  const info: DemoInfo = {
    url,
    dataDir: config.dataDir,
    store,
    redis,
    created: demo.created,
    merchantId: demo.merchantId,
    apiKey: demo.apiKey,
    apiSecret: demo.apiSecret,
    token,
    checkoutUrl,
    console: consoleInfo,
    dashboard,
  };
  const { env, requests } = demoCommands(info);
  const demoJson = {
    created: demo.created,
    merchantId: demo.merchantId,
    apiKey: demo.apiKey,
    apiSecret: demo.apiSecret,
    token,
    checkoutUrl,
    console: consoleInfo ?? null,
    dashboard: { url: dashboard.url, email: dashboard.email, invitationLink: dashboard.invitationLink ?? null },
    env,
    requests,
  };
  printResult(io, opts.json, { url, docsUrl, dataDir: config.dataDir, store, redis, demo: demoJson }, () =>
    demoBanner(info),
  );
}
