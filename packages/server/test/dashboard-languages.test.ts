import { describe, expect, it } from 'vitest';
import { PAYER_LANGUAGES } from '../dashboard/languages.js';
import { LANGUAGES } from '../src/i18n/languages.js';

/** The settings page's language list is the server's (the bundle keeps its own copy). */
describe('the dashboard’s payer languages', () => {
  it('are the server’s codes and names, in its order', () => {
    expect(PAYER_LANGUAGES.map(([code, name]) => ({ code, name }))).toEqual(
      LANGUAGES.map(({ code, name }) => ({ code, name })),
    );
  });
});
