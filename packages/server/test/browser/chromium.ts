import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
