import { isatty } from 'node:tty';
import { CommanderError } from 'commander';
import { writeExactJson } from '@hostpay/protocol';

/** Where a command writes. Injected so tests can run the program in-process. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** Asks the person at the terminal (stdin a TTY) and returns the line typed; absent otherwise. */
  ask?: (question: string) => Promise<string>;
}

export const processIo = (): Io => ({
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
  ...(isatty(0) ? { ask: askOnTerminal } : {}),
});

/** One question on stderr (stdout stays the command's output, e.g. its --json document). */
async function askOnTerminal(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/** The API (or the local store) refused or failed the operation: any code not below. */
export const EXIT_FAILURE = 1;
/** The command line is wrong: unknown option, missing argument or credentials. */
export const EXIT_USAGE = 2;
/** No usable answer: the server could not be reached, did not answer in time, or is unavailable. */
export const EXIT_UNREACHABLE = 3;
/** The server refused the credentials: any 401 or 403 (bad key, signature, token; revoked, scope, IP). */
export const EXIT_AUTH = 4;

/** Codes that mean "no usable answer, try again later", whoever raised them (client, CLI or server). */
const UNREACHABLE_CODES = new Set(['NETWORK_ERROR', 'TIMEOUT', 'UNAVAILABLE', 'STORE_BUSY']);

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
    /** The server's HTTP status and `error.details`, when it answered. */
    readonly answer: { status?: number | undefined; details?: Record<string, unknown> | undefined } = {},
  ) {
    super(message);
  }
  get status(): number | undefined {
    return this.answer.status;
  }
  get details(): Record<string, unknown> | undefined {
    return this.answer.details;
  }
}

/** What `--json` prints on stdout for a failed command: the API's error envelope, flattened. */
export interface ErrorEnvelope {
  status: false;
  code: string;
  message: string;
  requestId: string | null;
  details: Record<string, unknown> | null;
}

/**
 * Prints a command's result: one JSON document with `--json` (exact decimals kept, so amounts
 * never pass through a binary float), else the short text `human` renders.
 */
export function printResult(io: Io, json: boolean | undefined, value: unknown, human: () => string): void {
  io.stdout(json ? writeExactJson(value) + '\n' : human().replace(/\n?$/, '\n'));
}

/**
 * What every list command prints with `--json`: one page and the cursor of the next (`null` on
 * the last page, and always for lists the API returns whole), so scripts handle every list alike.
 */
export interface ListDocument<T> {
  items: readonly T[];
  nextCursor: string | null;
}

export const listDocument = <T>(items: readonly T[], nextCursor?: string | null): ListDocument<T> => ({
  items,
  nextCursor: nextCursor ?? null,
});

/** The text line after a list's table when there is a next page. */
export const moreLine = (nextCursor: string | null | undefined): string =>
  nextCursor === null || nextCursor === undefined ? '' : `\nmore: repeat with --cursor ${nextCursor}`;

/** A one-line notice on stderr that is not an error (generated keys, shutdown). */
export function notice(io: Io, message: string): void {
  io.stderr(`hostpay: ${oneLine(message)}\n`);
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/**
 * The single stderr line, the exit code and the `--json` envelope for anything a command threw.
 * Scripts can rely on the shape: `hostpay: CODE: message` for an operation that failed, followed
 * by ` (request id req_…)` when the server answered, and `hostpay: message` otherwise.
 */
export function describeError(
  err: unknown,
  lastHelpUsage = '',
): { line: string | null; exitCode: number; envelope: ErrorEnvelope | null } {
  const usage = (message: string) => ({
    line: `hostpay: ${message}`,
    exitCode: EXIT_USAGE,
    envelope: envelopeOf('USAGE', message),
  });
  if (err instanceof CommanderError) {
    if (err.exitCode === 0) return { line: null, exitCode: 0, envelope: null }; // --help, --version
    if (err.code === 'commander.help') {
      // A command group run without a subcommand: point at its help instead of dumping it.
      const command = /^Usage: (\S+(?: [a-z][a-z-]*)*)/.exec(lastHelpUsage)?.[1] ?? 'hostpay';
      return usage(`missing command: run \`${command} --help\` to see the commands`);
    }
    return usage(oneLine(err.message.replace(/^error: /, '')));
  }
  if (err instanceof UsageError) return usage(oneLine(err.message));
  if (err instanceof CommandError || isCodedError(err)) {
    const requestId = typeof err.requestId === 'string' ? err.requestId : undefined;
    const message = oneLine(err.message);
    return {
      line: `hostpay: ${err.code}: ${message}${requestId === undefined ? '' : ` (request id ${requestId})`}`,
      exitCode: exitCodeOf(err.code, err.status),
      envelope: envelopeOf(err.code, message, requestId, err.details),
    };
  }
  const message = oneLine(err instanceof Error ? err.message : String(err));
  return { line: `hostpay: ${message}`, exitCode: EXIT_FAILURE, envelope: envelopeOf('FAILED', message) };
}

/** A gateway's answer for a server behind it that is down or slow: no hostpay answer either. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

function exitCodeOf(code: string, status: unknown): number {
  if (UNREACHABLE_CODES.has(code) || GATEWAY_STATUSES.has(status as number)) return EXIT_UNREACHABLE;
  if (status === 401 || status === 403) return EXIT_AUTH;
  return EXIT_FAILURE;
}

function envelopeOf(code: string, message: string, requestId?: string, details?: unknown): ErrorEnvelope {
  const detailsObject = typeof details === 'object' && details !== null ? (details as Record<string, unknown>) : null;
  return { status: false, code, message, requestId: requestId ?? null, details: detailsObject };
}

/**
 * A HostpayError of the server package (operator commands) or of the client (merchant commands,
 * which also carries `requestId`). Both are recognised by shape, so this module loads neither.
 */
function isCodedError(
  err: unknown,
): err is Error & { code: string; requestId?: unknown; status?: unknown; details?: unknown } {
  return err instanceof Error && err.name === 'HostpayError' && typeof (err as { code?: unknown }).code === 'string';
}
