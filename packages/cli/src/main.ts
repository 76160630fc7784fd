import { processIo } from './output.js';
import { run } from './program.js';

/**
 * Process entry (bin/hostpay.js). Sets the exit code instead of calling process.exit, so output
 * written to a pipe is flushed before the process ends.
 */
export async function main(): Promise<void> {
  // `hostpay --help | head`: the reader left, so there is no one to write to; stop quietly
  // instead of crashing with an unhandled EPIPE.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw err;
  });
  process.exitCode = await run(process.argv.slice(2), processIo());
}
