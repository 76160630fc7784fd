import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { PUBLIC_FORM_CSP } from '../../src/http/public-form.js';
import { axeViolations } from './axe.js';

/** The payment page's first-load budget (HTML, CSS, script, headers), which every public page meets. */
export const PAGE_BUDGET = 60 * 1024;
/** The narrowest phone the pages are made for. */
export const PHONE = { width: 360, height: 740 };

export interface PageFacts {
  status: number;
  /** Bytes of a first load: the page and what it loads, bodies uncompressed and headers. */
  bytes: number;
  requests: number;
}

/**
 * Opens a public page (a link's, an invoice's) in `page` (a 360 px context) and holds it to the
 * payment page's standards (spec/commerce.md, "Shared decisions"): the answer `status`, the
 * form pages' CSP (nothing inline, the form posting only to itself), every request to the server
 * itself, the first load within the budget, no horizontal scrolling at 360 px, and axe-core with
 * zero violations in light and dark. `what` names the page in failures.
 */
export async function checkPublicPage(page: Page, url: string, status: number, what: string): Promise<PageFacts> {
  const origin = new URL(url).origin;
  const urls: string[] = [];
  const onRequest = (r: { url(): string }) => urls.push(r.url());
  page.on('request', onRequest);
  let res: Awaited<ReturnType<Page['goto']>>;
  try {
    res = await page.goto(url, { waitUntil: 'networkidle' });
  } finally {
    page.off('request', onRequest);
  }
  expect(res?.status(), what).toBe(status);
  const csp = (await res!.allHeaders())['content-security-policy'];
  expect(csp, what).toBe(PUBLIC_FORM_CSP);
  expect(csp, what).not.toMatch(/unsafe-inline|unsafe-eval/);
  expect(
    urls.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:')),
    `${what}: requests off the server`,
  ).toEqual([]);
  // What the browser loaded, fetched again to count it as a first visit (the stylesheet comes from
  // the cache after the first page): uncompressed bodies and headers, as the receipt's budget test.
  let bytes = 0;
  for (const u of new Set(urls.filter((u) => u.startsWith(`${origin}/`)))) {
    const r = await fetch(u);
    bytes += (await r.arrayBuffer()).byteLength;
    r.headers.forEach((v, k) => {
      bytes += k.length + v.length + 4;
    });
  }
  console.log(`${what}: first load ${urls.length} requests, ${bytes} bytes`);
  expect(bytes, `${what}: first load`).toBeGreaterThan(1000);
  expect(bytes, `${what}: first load`).toBeLessThanOrEqual(PAGE_BUDGET);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${what}: width at ${PHONE.width} px`).toBeLessThanOrEqual(PHONE.width);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page), `${what}, ${scheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return { status, bytes, requests: urls.length };
}
