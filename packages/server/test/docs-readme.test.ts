import { execFileSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENT_TYPE_VALUES } from '@hostpay/protocol';
import { describe, expect, it } from 'vitest';

/**
 * The front door: README's first paragraph describes today's product and signature version 2, the
 * quick start is two lines that work in a fresh shell, the docs index covers every doc, and
 * docs/webhooks.md lists every event type the server delivers.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const readme = read('README.md');
const section = (doc: string, heading: string) => {
  const start = doc.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const next = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, next === -1 ? undefined : next);
};

describe('README', () => {
  it("the first paragraph is today's product: checkouts, page, watchers, payouts, refunds, dashboard, signature version 2", () => {
    const first = readme.split('\n\n')[1]!;
    for (const word of ['checkout', 'payment page', 'watchers', 'payouts', 'refunds', 'dashboard', 'webhooks'])
      expect(first, word).toContain(word);
    expect(first).toContain('signature version 2');
    expect(first).toContain('`<timestamp>.<METHOD>.<path?query>.<body>`');
    expect(first).not.toMatch(/over `<timestamp>\.<body>`/);
    expect(first).not.toContain('fee preview');
  });

  it('the quick start is two lines: the demo and the tests, through ./run', () => {
    const block = /```sh\n([\s\S]*?)```/.exec(section(readme, 'Run it'))![1]!;
    const commands = block
      .trim()
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim());
    expect(commands).toEqual(['./run demo', './run test']);
    accessSync(`${ROOT}run`, constants.X_OK);
    const script = read('run');
    expect(script).toContain('source .ci/use-node.sh');
    expect(script).toMatch(/demo\).*npm start/);
    expect(script).toMatch(/test\).*npm test/);
  });

  it('./run works in a fresh shell: the pinned Node 24 without sourcing anything first', () => {
    // A shell with the system PATH only, as a new terminal has (the test itself runs on the pinned Node).
    const out = execFileSync('bash', ['-c', './run node -p process.versions.node'], {
      cwd: ROOT,
      env: { HOME: process.env.HOME ?? '/tmp', PATH: '/usr/local/bin:/usr/bin:/bin' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out.trim()).toMatch(/^24\./);
  });

  it('the signing example is version 2: the header and the signed string of that request', () => {
    const example = /```sh\ncurl -sS '([^']+)'[\s\S]*?```/.exec(readme)!;
    const url = new URL(example[1]!);
    expect(example[0]).toContain("-H 'signature-version: 2'");
    const signed = /HMAC-SHA256 of "([^"]+)"/.exec(example[0])![1]!;
    const ts = /timestamp: (\d+)/.exec(example[0])![1]!;
    expect(signed).toBe(`${ts}.GET.${url.pathname}${url.search}.`);
  });

  it('the docs index links every doc; chains.md is about the watchers', () => {
    const index = section(readme, 'Documentation');
    for (const doc of readdirSync(`${ROOT}docs`).filter((f) => f.endsWith('.md')))
      expect(index, doc).toContain(`(docs/${doc})`);
    const chains = index.slice(index.indexOf('[docs/chains.md]')).split('\n- ')[0]!;
    expect(chains).toContain('watcher');
    expect(chains).not.toContain('connecting an indexer');
  });
});

describe('docs/webhooks.md', () => {
  const doc = read('docs/webhooks.md');
  it('lists every event type the server delivers, and no other', () => {
    const table = section(doc, 'Events');
    const listed = [...table.matchAll(/^\| `([a-z_.]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...EVENT_TYPE_VALUES].sort());
  });

  it("says a refund's completion is payout.completed with refundOf", () => {
    expect(doc).toMatch(/completion is `payout\.completed` with `refundOf`/);
  });
});
