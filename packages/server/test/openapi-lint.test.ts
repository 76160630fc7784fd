import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_TOKENS } from './http-helpers/admin-fixture.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/**
 * The served /openapi.json (admin API enabled, so everything is in it) through both linters:
 * Redocly CLI with its recommended ruleset (redocly.yaml) and Spectral with spectral:oas
 * (.spectral.yaml), run from their installed entry points, offline: no remote rulesets, and
 * Redocly's usage data off. Zero problems of any severity; if there are any, they are printed.
 */
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(import.meta.url);

/** The `bin` of an installed package, run with this Node (never an npx download). */
function entryPoint(pkg: string, bin: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const bins = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin;
  return join(dirname(manifest), bins[bin] ?? '');
}

type Op = {
  operationId?: string;
  security?: unknown[];
  parameters?: unknown[];
  requestBody?: { required: boolean };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};
type Doc = { paths: Record<string, Record<string, Op>> };

let fx: HttpFixture;
let dir: string;
let file: string;
let doc: Doc;
beforeAll(async () => {
  fx = await createFixture({ adminTokens: OPERATOR_TOKENS, console: true });
  const res = await fx.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  dir = mkdtempSync(join(tmpdir(), 'hostpay-openapi-'));
  file = join(dir, 'openapi.json');
  writeFileSync(file, res.body);
});
afterAll(async () => {
  await fx.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );

describe('the OpenAPI document passes both linters', () => {
  it('Redocly (recommended): 0 errors, 0 warnings', async () => {
    const cli = entryPoint('@redocly/cli', 'redocly');
    // Exit code 1 on problems: read the report either way.
    const out = await run(
      process.execPath,
      [cli, 'lint', file, '--config', join(root, 'redocly.yaml'), '--format=json'],
      { env, cwd: dir },
    ).catch((err: { stdout: string }) => err);
    const report = JSON.parse(out.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('Spectral (spectral:oas): no problems of any severity', async () => {
    const cli = entryPoint('@stoplight/spectral-cli', 'spectral');
    const output = join(dir, 'spectral.json');
    await run(
      process.execPath,
      [cli, 'lint', file, '--ruleset', join(root, '.spectral.yaml'), '--format', 'json', '--output', output, '--quiet'],
      { env, cwd: dir },
    ).catch(() => undefined);
    const results = JSON.parse(readFileSync(output, 'utf8')) as {
      code: string;
      message: string;
      severity: number;
      path: string[];
    }[];
    expect(results.map((r) => `${r.code} (severity ${r.severity}): ${r.message} at ${r.path.join('.')}`)).toEqual([]);
  });
});

describe('what the linters do not check', () => {
  it('every operation that takes input documents its client errors (redocly.yaml turns the rule off for the input-less ones)', () => {
    for (const { where, op } of operations()) {
      const takesInput =
        (op.parameters?.length ?? 0) > 0 || op.requestBody !== undefined || (op.security?.length ?? 0) > 0;
      if (takesInput)
        expect(
          Object.keys(op.responses).some((s) => s.startsWith('4')),
          where,
        ).toBe(true);
    }
  });

  it('every success answer has a real schema, not an opaque one', () => {
    for (const { where, op } of operations()) {
      const successes = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
      expect(successes.length, where).toBeGreaterThan(0);
      for (const [status, response] of successes) {
        const media = Object.entries(response.content ?? {});
        expect(media.length, `${where} ${status}`).toBeGreaterThan(0);
        for (const [type, { schema }] of media) {
          if (type.startsWith('application/json'))
            expect(
              schema.$ref !== undefined || (schema.type === 'object' && schema.properties !== undefined),
              `${where} ${status}`,
            ).toBe(true);
          else expect(schema.type, `${where} ${status} ${type}`).toBe('string');
        }
      }
    }
  });

  it('the token body is optional, as on the server; bodies with required fields are required', () => {
    expect(doc.paths['/api/v1/auth/token']?.post?.requestBody?.required).toBe(false);
    expect(doc.paths['/admin/v1/merchants/{id}/suspend']?.post?.requestBody?.required).toBe(false);
    expect(doc.paths['/admin/v1/merchants']?.post?.requestBody?.required).toBe(true);
  });

  it('the wallet and fee preview schemas are named once and referenced', () => {
    const text = JSON.stringify(doc);
    expect(text).toContain('"#/components/schemas/Wallet"');
    expect(text).toContain('"#/components/schemas/FeePreview"');
  });
});
