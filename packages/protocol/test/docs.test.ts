import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../src/index.js';

const apiDoc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

describe('docs/api.md', () => {
  it('documents every error code with its HTTP status', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(apiDoc, code).toMatch(new RegExp(`\\| ${status} \\| \`${code}\` \\|`));
    }
  });
});
