import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configTable } from '../src/config.js';

describe('README configuration table', () => {
  it('is exactly the table generated from the configuration schema', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(configTable());
  });
});
