import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// No Docker engine runs where the tests run, so the image is checked by what its files say:
// what an operator relies on when they run it.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string) => readFileSync(`${ROOT}${file}`, 'utf8');

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('runs the compiled bin as a non-root user, with the data directory as a volume', () => {
    expect(final).toMatch(/^USER node$/m);
    expect(final).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(final).toMatch(/^CMD \["node", "packages\/cli\/bin\/hostpay\.js", "serve"\]$/m);
    expect(dockerfile).not.toMatch(/tsx/);
  });

  it('builds with npm ci (prepare compiles dist/) and keeps production dependencies only', () => {
    expect(dockerfile).toMatch(/npm ci .*&& npm prune --omit=dev/);
  });

  it('checks its health on the configured port', () => {
    expect(final).toMatch(/^HEALTHCHECK [^\n]*\\\n\s*CMD [^\n]*process\.env\.HOSTPAY_PORT/m);
  });
});

describe('compose.yaml', () => {
  it('parses, and runs two hostpay replicas behind the load balancer on PostgreSQL and Redis', () => {
    const doc = parse(read('compose.yaml')) as {
      services: Record<string, { depends_on?: unknown; environment?: Record<string, string> }>;
    };
    expect(Object.keys(doc.services).sort()).toEqual(['hostpay-1', 'hostpay-2', 'lb', 'postgres', 'redis']);
    for (const name of ['hostpay-1', 'hostpay-2']) {
      expect(doc.services[name]?.environment?.HOSTPAY_DATABASE_URL).toMatch(/^postgres:\/\//);
      expect(doc.services[name]?.environment?.HOSTPAY_REDIS_URL).toBe('redis://redis:6379');
    }
  });
});

describe('.dockerignore', () => {
  it('keeps installed and built trees out of the build context', () => {
    const lines = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', '**/dist', '.git', '.hostpay']) expect(lines).toContain(entry);
  });
});
