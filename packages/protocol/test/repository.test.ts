import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  loadSigningBodyVectors,
  loadSigningV2Vectors,
  loadSigningVectors,
  readVectorFile,
  VECTORS_DIR,
} from './vectors.js';

const ROOT = join(VECTORS_DIR, '..');

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|js|mjs|cjs|json|md|yaml|yml|sh)$/.test(name) && name !== 'package-lock.json') yield path;
  }
}

describe('the repository is self-contained', () => {
  it('no file reads the steering folder beside the clone', () => {
    const offenders: string[] = [];
    // Built from parts so this file does not match itself.
    const outside = new RegExp(['\\.\\./', 'shared/', 'vectors'].join(''));
    for (const file of sourceFiles(ROOT)) {
      if (outside.test(readFileSync(file, 'utf8'))) offenders.push(relative(ROOT, file));
    }
    expect(offenders).toEqual([]);
  });

  it('the signing loader returns every case of the file, each complete', () => {
    const raw = JSON.parse(readFileSync(join(VECTORS_DIR, 'signing.json'), 'utf8')) as { cases: unknown[] };
    const loaded = loadSigningVectors();
    expect(loaded).toHaveLength(raw.cases.length);
    for (const c of loaded) {
      for (const field of ['name', 'secret', 'timestamp', 'signedString', 'signature'] as const) {
        expect(typeof c[field], `${c.name}.${field}`).toBe('string');
        expect(c[field].length, `${c.name}.${field}`).toBeGreaterThan(0);
      }
      expect(typeof c.rawBody).toBe('string');
      expect(c.signature).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('the signing v2 loader returns every v2 case, each complete', () => {
    const raw = JSON.parse(readFileSync(join(VECTORS_DIR, 'signing.json'), 'utf8')) as { v2: { cases: unknown[] } };
    const loaded = loadSigningV2Vectors();
    expect(loaded).toHaveLength(raw.v2.cases.length);
    for (const c of loaded) {
      for (const field of [
        'name',
        'secret',
        'timestamp',
        'method',
        'target',
        'canonicalTarget',
        'signedString',
        'signature',
      ] as const) {
        expect(typeof c[field], `${c.name}.${field}`).toBe('string');
        expect(c[field].length, `${c.name}.${field}`).toBeGreaterThan(0);
      }
      expect(typeof c.rawBody).toBe('string');
      expect(c.signature).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('the signing body loader returns every body case, each complete', () => {
    const raw = JSON.parse(readFileSync(join(VECTORS_DIR, 'signing.json'), 'utf8')) as { bodies: { cases: unknown[] } };
    const loaded = loadSigningBodyVectors();
    expect(loaded).toHaveLength(raw.bodies.cases.length);
    for (const c of loaded) {
      for (const field of [
        'name',
        'secret',
        'timestamp',
        'rawBody',
        'compactBody',
        'signedString',
        'signature',
        'rawSignature',
      ] as const) {
        expect(typeof c[field], `${c.name}.${field}`).toBe('string');
        expect(c[field].length, `${c.name}.${field}`).toBeGreaterThan(0);
      }
      expect(c.signature).toMatch(/^[0-9a-f]{64}$/);
      expect(c.rawSignature).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('the webhook vectors have accept and reject cases with every field a verifier needs', () => {
    const doc = readVectorFile<{ cases: Array<Record<string, unknown>> }>('webhooks.json');
    expect(doc.cases.length).toBeGreaterThanOrEqual(10);
    for (const c of doc.cases) {
      for (const f of [
        'secret',
        'msgId',
        'timestamp',
        'now',
        'toleranceSeconds',
        'body',
        'signatureHeader',
        'expect',
      ]) {
        expect(c, `${String(c.name)} lacks ${f}`).toHaveProperty(f);
      }
      expect(['accept', 'reject']).toContain(c.expect);
    }
    expect(doc.cases.some((c) => c.expect === 'accept')).toBe(true);
    expect(doc.cases.some((c) => c.expect === 'reject')).toBe(true);
  });

  it('the address vectors name an account key and derived addresses per chain', () => {
    const doc = readVectorFile<{ chains: Array<Record<string, unknown>>; invalidKeys: unknown[] }>('addresses.json');
    expect(doc.chains.length).toBeGreaterThanOrEqual(3);
    for (const c of doc.chains) {
      expect(typeof c.chain).toBe('string');
      expect(String(c.accountXpub)).toMatch(/^[xt]pub/);
    }
    expect(doc.invalidKeys.length).toBeGreaterThan(0);
  });
});
