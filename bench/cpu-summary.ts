/**
 * Where a profiled server's CPU went, per create (issue 33): reads the V8 CPU profiles that
 * `npm run bench:checkout -- --cpu-prof DIR` leaves in DIR (one per thread) and prints, for the
 * thread that served the creates, self and inclusive time per function and self time per source
 * module, in µs per create. Bundled frames are mapped back to their source file through the
 * bundle's source maps (node:module SourceMap), so the modules read as `packages/server/src/…` and
 * `node_modules/<package>`.
 *
 *   npx tsx bench/cpu-summary.ts DIR [--creates N] [--top 30] [--callers NAME] [--from NAME]
 *
 * `--creates`: the creates answered while profiled (default: DIR/creates.txt, which
 * bench:checkout writes), or the requests of another path with `--from` (the wallet list's:
 * `--from answer`). The window starts at the first sample inside `createCheckout` (start-up
 * and migrations are not creates' cost); idle samples are left out; garbage collection and
 * `(program)` (native code outside any JavaScript frame) stay in, as they are the thread's time.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    creates: { type: 'string' },
    top: { type: 'string', default: '30' },
    callers: { type: 'string' },
    // The function whose first sample opens the window (answer: http/fast-path.ts).
    from: { type: 'string', default: 'createCheckout' },
  },
});
const dir = positionals[0];
if (dir === undefined) {
  console.error('usage: tsx bench/cpu-summary.ts DIR [--creates N] [--top 30]');
  process.exit(2);
}
const top = Number(opts.top);
const root = fileURLToPath(new URL('..', import.meta.url));
const createsFile = join(dir, 'creates.txt');
const [written, threadUs] = existsSync(createsFile) ? readFileSync(createsFile, 'utf8').trim().split(' ') : [];
const creates = Number(opts.creates ?? written ?? NaN);
// The thread's own CPU µs per create (bench:checkout reads it from /proc): the profile's sample
// times are wall time, which a loaded machine inflates (a descheduled thread is still sampled), so
// each function's share of the samples is also given as a share of this.
const cpuPerCreate = threadUs === undefined || threadUs === '' ? undefined : Number(threadUs);

const maps = new Map<string, SourceMap | null>();
function sourceMap(url: string): SourceMap | null {
  let m = maps.get(url);
  if (m === undefined) {
    m = null;
    if (url.startsWith('file://')) {
      const file = `${fileURLToPath(url)}.map`;
      if (existsSync(file)) m = new SourceMap(JSON.parse(readFileSync(file, 'utf8')));
    }
    maps.set(url, m);
  }
  return m;
}

/** `node_modules/<package>` or the path in this repository, of a frame's original source. */
function place(frame: CallFrame): { module: string; line: number } {
  if (frame.url === '') return { module: '(native)', line: 0 };
  let file = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  let line = frame.lineNumber + 1;
  const entry = sourceMap(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (entry !== undefined && 'originalSource' in entry) {
    const source = entry.originalSource;
    // Sources are named relative to where esbuild wrote the map: a staging folder one level below
    // the one it was moved to (packages/cli/scripts/bundle.mjs).
    const at = dirname(fileURLToPath(frame.url));
    file = source.startsWith('file://')
      ? fileURLToPath(source)
      : ([resolve(at, 'staging', source), resolve(at, source)].find((f) => existsSync(f)) ?? source);
    line = entry.originalLine + 1;
  }
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = file.slice(nm + 'node_modules/'.length).split('/');
    return { module: `node_modules/${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`, line };
  }
  return { module: file.startsWith('/') ? relative(root, file) : file, line };
}

function summarise(name: string, profile: Profile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = new Map<number, { fn: string; module: string }>();
  for (const n of profile.nodes) {
    const { module, line } = place(n.callFrame);
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${module}${line > 0 ? `:${line}` : ''}`;
    keyOf.set(n.id, { fn, module });
  }
  const stack = (id: number): number[] => {
    const ids = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) ids.push(at);
    return ids;
  };
  const inWindow = (id: number) => stack(id).some((s) => byId.get(s)!.callFrame.functionName === opts.from);
  const start = profile.samples.findIndex(inWindow);
  if (start < 0) return;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const modules = new Map<string, number>();
  // Each sample charged to the innermost frame of this repository's own source on its stack: what
  // a function of ours costs with the library and runtime code it called.
  const own = new Map<string, number>();
  // `--callers NAME`: the time inside functions named NAME, by the function of ours that called them.
  const callers = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (let i = start; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    const k = keyOf.get(id)!;
    if (byId.get(id)!.callFrame.functionName === '(idle)') {
      idle += dt;
      continue;
    }
    total += dt;
    self.set(k.fn, (self.get(k.fn) ?? 0) + dt);
    modules.set(k.module, (modules.get(k.module) ?? 0) + dt);
    const mine = stack(id).find((s) => keyOf.get(s)!.module.startsWith('packages/'));
    const ownKey = mine === undefined ? `(outside our code) ${k.module}` : keyOf.get(mine)!.fn;
    own.set(ownKey, (own.get(ownKey) ?? 0) + dt);
    if (opts.callers !== undefined) {
      const ids = stack(id);
      const at = ids.findIndex((s) => byId.get(s)!.callFrame.functionName === opts.callers);
      if (at >= 0) {
        const caller = ids.slice(at + 1).find((s) => keyOf.get(s)!.module.startsWith('packages/'));
        const key = caller === undefined ? '(no caller of ours)' : keyOf.get(caller)!.fn;
        callers.set(key, (callers.get(key) ?? 0) + dt);
      }
    }
    for (const fn of new Set(stack(id).map((s) => keyOf.get(s)!.fn))) inclusive.set(fn, (inclusive.get(fn) ?? 0) + dt);
  }
  const per = (us: number) => (Number.isFinite(creates) && creates > 0 ? (us / creates).toFixed(1) : '?');
  const cpu = (us: number) => (cpuPerCreate === undefined ? '' : ((us / total) * cpuPerCreate).toFixed(1));
  const list = (title: string, m: Map<string, number>) => {
    console.log(`\n${title}\n${'µs/create'.padStart(10)} ${'CPU µs'.padStart(7)} ${'share'.padStart(6)}  what`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(
        `${per(us).padStart(10)} ${cpu(us).padStart(7)} ${`${((100 * us) / total).toFixed(1)}%`.padStart(6)}  ${k}`,
      );
  };
  console.log(
    `${name}: ${(total / 1e3).toFixed(0)} ms busy, ${(idle / 1e3).toFixed(0)} ms idle, ` +
      `${Number.isFinite(creates) ? creates : '?'} creates: **${per(total)} µs of samples per create**` +
      (cpuPerCreate === undefined ? '' : `, ${cpuPerCreate.toFixed(0)} µs of the thread's CPU per create`),
  );
  list('self time by module', modules);
  list('self time by function', self);
  list('inclusive time by function', inclusive);
  list('time charged to our innermost function (with the library code it called)', own);
  if (opts.callers !== undefined) list(`${opts.callers}, by the function of ours that called it`, callers);
}

const files = dir.endsWith('.cpuprofile') ? [dir] : readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
for (const f of files.sort()) {
  const path = dir.endsWith('.cpuprofile') ? f : join(dir, f);
  summarise(f, JSON.parse(readFileSync(path, 'utf8')) as Profile);
}
