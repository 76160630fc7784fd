// The HTTP layer as its own entry point (`@hostpay/server/app`): Fastify and its plugins are the
// slowest part of start-up, so operator commands that only touch the store do not load them.
export { buildApp, type AppDeps } from './app.js';
export { startServer, type RunningServer, type ListenOptions } from './server.js';
export { createServer, type CreateServerOptions, type HostpayServer } from './create-server.js';
