import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signV2, unixTimestamp } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS } from '../src/features/pay/assets.js';
import { PAGE_CSP } from '../src/http/page-headers.js';

/**
 * The page as shipped: the bundled `hostpay serve --demo` binary (packages/cli/dist) serves the
 * page, its hashed CSS and script (carried inside the bundle: no file to find at run time), the
 * QR code and the status feed.
 */
const BIN = fileURLToPath(new URL('../../cli/bin/hostpay.js', import.meta.url));

interface Summary {
  url: string;
  demo: { apiKey: string; apiSecret: string; token: { accessToken: string } };
}

describe('hostpay serve --demo serves the payment page', () => {
  const data = mkdtempSync(join(tmpdir(), 'hostpay-pay-bin-'));
  let child: ReturnType<typeof spawn>;
  let exited: Promise<unknown>;
  let summary: Summary;

  beforeAll(async () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('HOSTPAY_')) env[k] = v;
    child = spawn(process.execPath, [BIN, 'serve', '--demo', '--json', '--port', '0', '--data-dir', data], {
      env: { ...env, HOSTPAY_LOG_LEVEL: 'warn', HOSTPAY_CONFIG_DIR: data },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((resolve) => child.on('exit', resolve));
    summary = await new Promise<Summary>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no start-up summary: ${out}`)), 25_000);
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        try {
          resolve(JSON.parse(out) as Summary);
          clearTimeout(timer);
        } catch {
          // not the whole document yet
        }
      });
    });
  }, 40_000);
  afterAll(async () => {
    child?.kill('SIGTERM');
    await exited;
    rmSync(data, { recursive: true, force: true });
  });

  it('page, CSS, script, QR and status from the bundled binary', async () => {
    const body = JSON.stringify({
      amount: '12.5',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    const timestamp = unixTimestamp(Date.now());
    const created = await fetch(`${summary.url}/api/v1/cp/psp/hosted-pay`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'api-key': summary.demo.apiKey,
        timestamp,
        'signature-version': '2',
        signature: signV2(summary.demo.apiSecret, timestamp, 'POST', '/api/v1/cp/psp/hosted-pay', body),
        authorization: `Bearer ${summary.demo.token.accessToken}`,
      },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { result } = (await created.json()) as { result: { url: string; paymentOptions: { address: string }[] } };
    expect(result.url).toMatch(new RegExp(`^${summary.url}/pay/chk_`));

    const page = await fetch(result.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(PAGE_CSP);
    const html = await page.text();
    expect(html).toContain(result.paymentOptions[0]!.address);
    expect(html).toContain('Sandbox: a test server');
    for (const asset of Object.values(ASSETS)) {
      expect(html).toContain(`"${asset.path}"`);
      const res = await fetch(`${summary.url}${asset.path}`);
      expect([res.status, res.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
      expect(await res.text()).toBe(asset.body);
    }
    const qr = await fetch(`${result.url}/qr.svg?option=USDT-TRON`);
    expect([qr.status, qr.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await qr.text()).toMatch(/^<svg /);
    const status = (await (await fetch(`${result.url}/status`)).json()) as { result: { status: string } };
    expect(status.result.status).toBe('open');
    expect((await fetch(`${summary.url}/pay/chk_unknown`)).status).toBe(404);
  });
});
