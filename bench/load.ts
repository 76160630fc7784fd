import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

export interface LoadResult {
  tool: 'wrk' | 'autocannon';
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  durationSeconds: number;
  connections: number;
  /** wrk threads: 1 leaves the second core to the server under test. */
  threads: number;
  /** A wrk Lua script (method and body of a POST); wrk only. */
  script?: string;
}

export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

const ms = (text: string): number => {
  const m = /([\d.]+)(us|ms|s)/.exec(text);
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
};

// Asynchronous, so the bench process can sample the database meanwhile (bench/pg-sample.ts).
async function runWrk(o: LoadOptions): Promise<LoadResult> {
  const args = [`-t${o.threads}`, `-c${o.connections}`, `-d${o.durationSeconds}s`, '--latency'];
  for (const [k, v] of Object.entries(o.headers)) args.push('-H', `${k}: ${v}`);
  if (o.script !== undefined) args.push('-s', o.script);
  const { stdout: out } = await promisify(execFile)('wrk', [...args, o.url], { encoding: 'utf8' });
  const line = (re: RegExp) => re.exec(out)?.[1] ?? 'NaN';
  return {
    tool: 'wrk',
    requestsPerSecond: Number(line(/Requests\/sec:\s+([\d.]+)/)),
    p50Ms: ms(line(/\s50%\s+(\S+)/)),
    p99Ms: ms(line(/\s99%\s+(\S+)/)),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
  };
}

async function runAutocannon(o: LoadOptions): Promise<LoadResult> {
  const r = await autocannon({
    url: o.url,
    headers: o.headers,
    duration: o.durationSeconds,
    connections: o.connections,
  });
  return {
    tool: 'autocannon',
    requestsPerSecond: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
  };
}

/** Loads one URL with wrk when installed (separate C process), else autocannon. */
export function load(o: LoadOptions): Promise<LoadResult> {
  return hasWrk() ? runWrk(o) : runAutocannon(o);
}
