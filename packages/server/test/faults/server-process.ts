import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The real command line operators run: `node packages/cli/bin/hostpay.js serve`. */
export const BIN = fileURLToPath(new URL('../../../cli/bin/hostpay.js', import.meta.url));

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** stderr parsed as pino JSON lines (lines that are not JSON are skipped). */
  logs(): LogLine[];
  /** Resolves with the exit code (or the signal name) once the process is gone. */
  exited: Promise<number | string | null>;
  readonly alive: boolean;
  /** SIGKILL if still running, and wait for the exit. */
  kill(): Promise<void>;
}

/**
 * Spawns `hostpay serve` with `env` on top of this process's environment (minus every HOSTPAY_*
 * variable of the machine running the tests), on a free port, and resolves once it listens.
 */
export async function startServerProcess(env: Record<string, string>, startTimeoutMs = 20_000): Promise<ServerProcess> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('HOSTPAY_')) base[k] = v;
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...base, HOSTPAY_HOST: '127.0.0.1', HOSTPAY_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal)),
  );

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`hostpay serve did not listen within ${startTimeoutMs} ms; stderr:\n${stderr}`)),
      startTimeoutMs,
    );
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`hostpay serve exited (${String(code)}) before listening; stderr:\n${stderr}`));
    });
    const onData = (): void => {
      const hit = /listening on (http:\/\/\S+)/.exec(stdout);
      if (!hit?.[1]) return;
      clearTimeout(timer);
      child.stdout!.removeListener('data', onData);
      resolve(hit[1]);
    };
    child.stdout!.on('data', onData);
  });

  return {
    child,
    url,
    stderr: () => stderr,
    logs: () =>
      stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as LogLine];
          } catch {
            return [];
          }
        }),
    exited,
    get alive() {
      return child.exitCode === null && child.signalCode === null;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
