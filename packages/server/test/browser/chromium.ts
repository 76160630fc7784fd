import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * The system Chromium (Debian's `chromium` package; .ci/run installs it when missing) driven by
 * playwright-core, which downloads no browser of its own. HOSTPAY_CHROMIUM names another binary.
 */
const CANDIDATES = [process.env.HOSTPAY_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  (p): p is string => p !== undefined && p !== '',
);

export const CHROMIUM_PATH = CANDIDATES.find((p) => existsSync(p));

/**
 * Whether the browser tests run: always in CI (a missing browser fails them there, loudly); else
 * only when a Chromium is installed, with the reason printed when they are skipped.
 */
export function browserTestsEnabled(): boolean {
  if (CHROMIUM_PATH !== undefined) return true;
  if (process.env.CI === 'true') return true; // launch() then fails with the missing path: never a silent skip in CI
  console.warn(
    `browser tests skipped: no Chromium at ${CANDIDATES.join(' or ')} (apt-get install chromium, or set HOSTPAY_CHROMIUM)`,
  );
  return false;
}

export function launchChromium(): Promise<Browser> {
  if (CHROMIUM_PATH === undefined)
    throw new Error(`CI=true and no Chromium at ${CANDIDATES.join(' or ')}: install it (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-dev-shm-usage',
    ],
  });
}

const settlesWithin = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

/**
 * Closes a page for good. Chromium can acknowledge a close that races the commit of a navigation
 * and then drop it (crbug.com/536385539, playwright#42366): `page.close()` then never settles, and
 * the browser's other pages slow down. It happened here about once in 20 runs of
 * dashboard-commerce.test.ts, to a payer page closed ~60 ms after the page a 303 led to committed
 * (the CI failures of 2026-11-29 and 2026-11-30: the test timed out, the next took 14 s instead of
 * 1, and only the teardown let the close finish).
 * So the page finishes loading first, and the close is asked again while the page is still there.
 */
export async function closePage(page: Page): Promise<void> {
  if (page.isClosed()) return;
  await page.waitForLoadState('load', { timeout: 10_000 }).catch(() => undefined);
  const session = await page.context().newCDPSession(page);
  const { targetInfo } = await session.send('Target.getTargetInfo');
  const closed = page.close();
  for (let asked = 1; asked <= 5; asked++) {
    if (await settlesWithin(closed, 2_000)) return closed;
    const browser = page.context().browser();
    if (browser === null) break;
    const root = await browser.newBrowserCDPSession();
    await root.send('Target.closeTarget', { targetId: targetInfo.targetId }).catch(() => undefined);
    await root.detach().catch(() => undefined);
  }
  if (!(await settlesWithin(closed, 2_000))) throw new Error(`page ${page.url()} did not close after 6 asks in 12 s`);
}
