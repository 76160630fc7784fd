/**
 * Answer size and latency with and without compression (bench/run.ts prints them after the
 * throughput table): the wallet list of the 5-wallet demo merchant (~2.5 KB, just over the 1 KB
 * threshold) and of a 1,000-wallet merchant (~0.65 MB), each asked without `accept-encoding`,
 * with `gzip` and with `br`. Same load shape as the main table; the bytes on the wire are read
 * with node:http, which does not decode.
 */
import { request } from 'node:http';
import { load, type LoadResult } from './load.js';

export interface LargeTarget {
  name: string;
  url: string;
  headers: () => Record<string, string>;
}

export interface LargeRow {
  name: string;
  encoding: string;
  wireBytes: number;
  result: LoadResult;
}

const ENCODINGS = ['identity', 'gzip', 'br'] as const;

/**
 * One GET over node:http, which does not decode: the status, the headers as written (raw, in
 * their order) and the body's bytes as they came over the wire. bench/run.ts reads hostpay's
 * answers with it too.
 */
export function getOnce(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; rawHeaders: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer within 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** Bytes on the wire and the content-encoding of one answer. */
async function wire(
  url: string,
  headers: Record<string, string>,
): Promise<{ bytes: number; encoding: string; status: number }> {
  const res = await getOnce(url, headers);
  const at = res.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'content-encoding');
  return { bytes: res.body.length, encoding: at < 0 ? 'identity' : res.rawHeaders[at + 1]!, status: res.status };
}

export async function measureLarge(
  targets: LargeTarget[],
  shape: { durationSeconds: number; connections: number; threads: number; runs: number },
): Promise<LargeRow[]> {
  const rows: LargeRow[] = [];
  for (const t of targets) {
    for (const encoding of ENCODINGS) {
      const headers = () => (encoding === 'identity' ? t.headers() : { ...t.headers(), 'accept-encoding': encoding });
      const probe = await wire(t.url, headers());
      if (probe.status !== 200 || probe.encoding !== encoding)
        throw new Error(`${t.name} ${encoding}: status ${probe.status}, content-encoding ${probe.encoding}`);
      const results: LoadResult[] = [];
      for (let i = 0; i < shape.runs; i++) {
        const r = await load({
          url: t.url,
          headers: headers(),
          durationSeconds: shape.durationSeconds,
          connections: shape.connections,
          threads: shape.threads,
        });
        if (r.non2xx > 0) throw new Error(`${t.name} ${encoding}: ${r.non2xx} non-2xx responses`);
        results.push(r);
      }
      const median = [...results].sort((a, b) => a.p50Ms - b.p50Ms)[Math.floor(results.length / 2)]!;
      rows.push({ name: t.name, encoding, wireBytes: probe.bytes, result: median });
    }
  }
  return rows;
}

export function printLarge(rows: LargeRow[], connections: number): void {
  console.log(`\nanswer size and compression (hostpay, ${connections} connections; accept-encoding as shown)`);
  console.log(
    `${'endpoint'.padEnd(30)} ${'encoding'.padEnd(9)} ${'bytes'.padStart(9)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'MB/s'.padStart(7)}`,
  );
  for (const r of rows) {
    const mbs = (r.result.requestsPerSecond * r.wireBytes) / 1e6;
    console.log(
      `${r.name.padEnd(30)} ${r.encoding.padEnd(9)} ${String(r.wireBytes).padStart(9)} ${r.result.requestsPerSecond.toFixed(0).padStart(9)} ${r.result.p50Ms.toFixed(2).padStart(9)} ${r.result.p99Ms.toFixed(2).padStart(9)} ${mbs.toFixed(1).padStart(7)}`,
    );
  }
}
