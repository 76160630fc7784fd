import { expect } from 'vitest';
import { parseExactJson } from '@hostpay/protocol';
import { run } from '../src/program.js';
import { lines, memoryIo, type Result } from './helpers.js';

/**
 * Runs one command line in this process (the commander program with an in-memory Io), as the
 * bin would: same parsing, same output, same exit code, without the cost of a process.
 */
export async function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<Result> {
  const io = memoryIo(env);
  const code = await run(args, io);
  return { code, stdout: io.out, stderr: io.err };
}

/** stdout must be exactly one JSON document; numbers come back as their exact text. */
export function json<T = Record<string, unknown>>(r: Result): T {
  expect(r.code, r.stderr).toBe(0);
  expect(lines(r.stdout)).toHaveLength(1);
  return parseExactJson(r.stdout) as T;
}

/** Exit 0 and the text on stdout. */
export function text(r: Result): string {
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/** The rows of a printed table as cells (split on runs of spaces), header first. */
export const cells = (table: string): string[][] => lines(table).map((l) => l.trim().split(/ {2,}/));
