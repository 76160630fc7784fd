import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Io } from '../src/output.js';

export const BIN = fileURLToPath(new URL('../bin/hostpay.js', import.meta.url));

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A profile directory that is never created: commands under test must not read (or write) the
 * profiles of the person running the tests. A test that wants profiles sets its own.
 */
export const NO_CONFIG_DIR = join(tmpdir(), `hostpay-cli-no-config-${process.pid}`);

/** The environment without any HOSTPAY_* setting of the machine running the tests. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('HOSTPAY_')) env[k] = v;
  return { ...env, HOSTPAY_CONFIG_DIR: NO_CONFIG_DIR, ...extra };
}

/** Runs the real bin (`node bin/hostpay.js ...`) to completion. */
export function hostpay(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return collect(spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** Runs a shell command line, as a user pasting it would. */
export function sh(line: string, env: Record<string, string> = {}): Promise<Result> {
  return collect(spawn('sh', ['-c', line], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
}

function collect(child: ChildProcess): Promise<Result> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hostpay-cli-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An in-process Io that records what a command printed. */
export function memoryIo(env: Record<string, string | undefined> = {}): Io & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    env: { HOSTPAY_CONFIG_DIR: NO_CONFIG_DIR, ...env },
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
  };
  return io;
}

/** The lines of a stream's text, without the empty one after the last newline. */
export const lines = (text: string): string[] => text.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1);

/** The start-up summary `hostpay serve --json` prints: the first complete JSON document on stdout. */
export function jsonSummary<T>(child: ChildProcess, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no start-up summary within ${timeoutMs} ms: ${out}`)), timeoutMs);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      try {
        resolve(JSON.parse(out) as T);
        clearTimeout(timer);
      } catch {
        // not the whole document yet
      }
    });
  });
}
