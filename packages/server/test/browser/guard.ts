import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * What a browser test did not ask for: a console error (an uncaught exception, a failed request,
 * a CSP refusal) or an error banner left on screen. A flow can pass every assertion while the
 * page shows a red banner beside the step it checked (a screen fetching an invitation it had just
 * used did exactly that): `check()` after each test fails it on anything not declared with
 * `expectError` during that test.
 */
export interface PageGuard {
  /** Follows a page (and every page opened later in its context must be watched too). */
  watch(page: Page): Page;
  /** An error this test provokes on purpose: a banner or console line matching it is not a failure. */
  expectError(pattern: RegExp): void;
  /** Fails on the unexpected errors since the last check; forgets them and the expected ones. */
  check(): Promise<void>;
}

/** Error banners as the fronts render them (ui-kit ErrorNote and any other role=alert). */
const BANNERS = '[role="alert"], p.error';

export function pageGuard(): PageGuard {
  const pages = new Set<Page>();
  let seen: string[] = [];
  let expected: RegExp[] = [];
  return {
    watch(page) {
      pages.add(page);
      page.on('close', () => pages.delete(page));
      page.on('pageerror', (e) => seen.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() !== 'error' && !/Content Security Policy|Refused to/i.test(m.text())) return;
        // A failed request's line does not name the URL; its location does.
        const url = m.location().url;
        seen.push(`console ${m.type()}: ${m.text()}${url ? ` at ${url}` : ''}`);
      });
      return page;
    },
    expectError(pattern) {
      expected.push(pattern);
    },
    async check() {
      const banners: string[] = [];
      for (const p of pages) {
        if (p.isClosed()) continue;
        const texts = await p
          .locator(BANNERS)
          .evaluateAll((els) =>
            els
              .filter((e) => (e as HTMLElement).offsetParent !== null || e.getClientRects().length > 0)
              .map((e) => (e.textContent ?? '').trim())
              .filter((t) => t !== ''),
          )
          .catch(() => [] as string[]); // a page mid-navigation has no DOM to read: its console still counts
        banners.push(...texts.map((t) => `banner on ${p.url()}: ${t}`));
      }
      const unexpected = [...seen, ...banners].filter((s) => !expected.some((re) => re.test(s)));
      seen = [];
      expected = [];
      expect(unexpected, 'errors on screen or in the console that the test did not expect').toEqual([]);
    },
  };
}
