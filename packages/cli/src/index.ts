/** Programmatic entry points, for tests and for embedding the CLI. */
export { run, buildProgram } from './program.js';
export { processIo, describeError, type Io } from './output.js';
export { authHeaders } from './signed-request.js';
export { shellQuote, shellCommand } from './shell-quote.js';
export { requestToken } from './token-request.js';
export type { AdminBackend } from './admin/backend.js';
export { openLocalBackend } from './admin/local-backend.js';
export { remoteBackend } from './admin/remote-backend.js';
