import { CommanderError } from 'commander';
import { writeExactJson } from '@hostpay/protocol';

/** Where a command writes. Injected so tests can run the program in-process. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
}

export const processIo = (): Io => ({
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
});

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Bad input the user can fix by changing the command line: exit 2, no code. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failed operation that carries a machine code (from the server's envelope, or ours). */
export class CommandError extends Error {
  override readonly name = 'CommandError';
  constructor(
    readonly code: string,
    message: string,
    /** The server's request id, when the failure came from the server. */
    readonly requestId?: string | undefined,
  ) {
    super(message);
  }
}

/**
 * Prints a command's result: one JSON document with `--json` (exact decimals kept, so amounts
 * never pass through a binary float), else the short text `human` renders.
 */
export function printResult(io: Io, json: boolean | undefined, value: unknown, human: () => string): void {
  io.stdout(json ? writeExactJson(value) + '\n' : human().replace(/\n?$/, '\n'));
}

/** A one-line notice on stderr that is not an error (generated keys, shutdown). */
export function notice(io: Io, message: string): void {
  io.stderr(`hostpay: ${oneLine(message)}\n`);
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/**
 * The single stderr line and exit code for anything a command threw. Scripts can rely on the
 * shape: `hostpay: CODE: message` for an operation that failed, followed by
 * ` (request id req_…)` when the server answered, and `hostpay: message` otherwise.
 */
export function describeError(err: unknown, lastHelpUsage = ''): { line: string | null; exitCode: number } {
  if (err instanceof CommanderError) {
    if (err.exitCode === 0) return { line: null, exitCode: 0 }; // --help, --version
    if (err.code === 'commander.help') {
      // A command group run without a subcommand: point at its help instead of dumping it.
      const command = /^Usage: (\S+(?: [a-z][a-z-]*)*)/.exec(lastHelpUsage)?.[1] ?? 'hostpay';
      return { line: `hostpay: missing command: run \`${command} --help\` to see the commands`, exitCode: EXIT_USAGE };
    }
    return { line: `hostpay: ${oneLine(err.message.replace(/^error: /, ''))}`, exitCode: EXIT_USAGE };
  }
  if (err instanceof UsageError) return { line: `hostpay: ${oneLine(err.message)}`, exitCode: EXIT_USAGE };
  if (err instanceof CommandError || isCodedError(err)) {
    const requestId = typeof err.requestId === 'string' ? ` (request id ${err.requestId})` : '';
    return { line: `hostpay: ${err.code}: ${oneLine(err.message)}${requestId}`, exitCode: EXIT_FAILURE };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { line: `hostpay: ${oneLine(message)}`, exitCode: EXIT_FAILURE };
}

/**
 * A HostpayError of the server package (operator commands) or of the client (merchant commands,
 * which also carries `requestId`). Both are recognised by shape, so this module loads neither.
 */
function isCodedError(err: unknown): err is Error & { code: string; requestId?: unknown } {
  return err instanceof Error && err.name === 'HostpayError' && typeof (err as { code?: unknown }).code === 'string';
}
