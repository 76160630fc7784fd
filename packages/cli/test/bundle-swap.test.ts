import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundle } from '../scripts/bundle.mjs';
import { tempDir } from './helpers.js';

/**
 * scripts/bundle.mjs rebuilding dist/ while programs run from it, with a small program of the same
 * form as the CLI: an entry, a chunk it loads at start and one it imports lazily. A rebuild used to
 * delete dist/chunks first, so a running `hostpay` that then imported a command's chunk failed
 * with ERR_MODULE_NOT_FOUND, as did one starting during the build.
 */
const project = tempDir();
afterAll(() => project.remove());
const src = join(project.dir, 'src');
const dist = join(project.dir, 'dist');
mkdirSync(src, { recursive: true });

/** The program's sources, with `version` in both chunks so every build has new chunk names. */
function writeSources(version: string): void {
  writeFileSync(join(project.dir, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(src, 'shared.js'), `export const version = '${version}';\n`);
  writeFileSync(
    join(src, 'lazy.js'),
    `import { version } from './shared.js';\nexport const lazy = 'lazy ' + version + ' ${version}';\n`,
  );
  // Loads the lazy chunk when told to on stdin ("now"), or at once with an argument ("at-once").
  writeFileSync(
    join(src, 'entry.js'),
    [
      "import { version } from './shared.js';",
      "const load = async () => { const m = await import('./lazy.js'); console.log(m.lazy); process.exit(0); };",
      "if (process.argv[2] === 'at-once') await load();",
      "else { console.log('ready ' + version); process.stdin.once('data', load); }",
    ].join('\n'),
  );
}

const build = (): Promise<string[]> => bundle({ entry: join(src, 'entry.js'), dist, name: 'app' });

function start(...args: string[]) {
  const child = spawn(process.execPath, [join(dist, 'app.js'), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out, err })),
  );
  return { child, exited, output: () => out };
}

describe('bundle.mjs swaps a new build in whole', () => {
  it('a process started on the old build still loads its lazy chunk after a rebuild', async () => {
    writeSources('v1');
    await build();
    const running = start();
    for (let i = 0; i < 200 && !running.output().includes('ready'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(running.output()).toBe('ready v1\n');

    writeSources('v2');
    await build();
    running.child.stdin.write('now\n');
    const { code, out, err } = await running.exited;
    expect(err).toBe('');
    expect([code, out]).toEqual([0, 'ready v1\nlazy v1 v1\n']);

    // A process started now runs the new build.
    const fresh = await start('at-once').exited;
    expect([fresh.code, fresh.out, fresh.err]).toEqual([0, 'lazy v2 v2\n', '']);
  });

  it('processes starting while builds run see one whole build, old or new', async () => {
    // Each round starts three processes and a build together, so starts overlap builds whatever
    // the machine's speed; every process must run one whole build.
    const results: { code: number | null; out: string; err: string }[] = [];
    for (let i = 3; i < 9; i++) {
      writeSources(`v${i}`);
      const [, ...round] = await Promise.all([build(), ...[1, 2, 3].map(() => start('at-once').exited)]);
      results.push(...round);
    }
    expect(results).toHaveLength(18);
    for (const r of results) {
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      // Both chunks of one build: never the entry of one with the chunk of another.
      expect(r.out).toMatch(/^lazy (v\d) \1\n$/);
    }
  });

  it("keeps the previous build's chunks and removes older ones", async () => {
    writeSources('a');
    const a = await build();
    writeSources('b');
    const b = await build();
    writeSources('c');
    const c = await build();
    const files = readdirSync(join(dist, 'chunks'));
    for (const f of [...b, ...c]) expect(files).toContain(f);
    for (const f of a.filter((f) => !b.includes(f) && !c.includes(f))) expect(files).not.toContain(f);
    // Nothing left of the staging folders.
    expect(readdirSync(dist).filter((f) => f.startsWith('.bundle'))).toEqual([]);
  });
});
