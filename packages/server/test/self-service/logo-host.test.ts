import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo/seed.js';
import { HostpayError } from '../../src/errors.js';
import { logoHostRefusal } from '../../src/features/self-service/settings.js';
import { DIALECTS, tempServices, type TempEnv } from '../helpers.js';

/**
 * A logo the payer's browser would fetch from its own machine or network is refused (issue 42,
 * item 7): every loopback spelling the URL parser folds into 127.0.0.1 or ::1, private, link-local
 * and metadata addresses, local names; loopback only on a sandbox server. Nothing is resolved.
 */
const LOOPBACK = [
  'https://127.0.0.1/logo.png',
  'https://127.1/logo.png',
  'https://127.0.0.2:8443/logo.png',
  'https://0x7f000001/logo.png',
  'https://2130706433/logo.png',
  'https://0177.0.0.1/logo.png',
  'https://[::1]/logo.png',
  'https://[::ffff:127.0.0.1]/logo.png',
  'https://[0:0:0:0:0:0:0:1]/logo.png',
  'https://localhost/logo.png',
  'https://LOCALHOST./logo.png',
  'https://shop.localhost/logo.png',
];
const PRIVATE = [
  'https://10.0.0.5/logo.png',
  'https://192.168.1.1/logo.png',
  'https://172.16.0.1/logo.png',
  'https://169.254.169.254/logo.png',
  'https://100.64.0.1/logo.png',
  'https://0.0.0.0/logo.png',
  'https://[fd00::1]/logo.png',
  'https://[fe80::1]/logo.png',
  'https://[::ffff:10.0.0.1]/logo.png',
  'https://printer.local/logo.png',
  'https://nas.home.arpa/logo.png',
  'https://metadata.google.internal/logo.png',
  'https://intranet/logo.png',
];
const PUBLIC = ['https://cdn.shop.example/logo.png', 'https://203.0.114.9/logo.png', 'https://[2606:4700::1]/l.png'];

describe('logoHostRefusal (no DNS)', () => {
  it('refuses loopback outside a sandbox only, private and local everywhere, passes public hosts', () => {
    for (const url of LOOPBACK) {
      expect(logoHostRefusal(new URL(url), false), url).not.toBeNull();
      expect(logoHostRefusal(new URL(url), true), url).toBeNull();
    }
    for (const url of PRIVATE)
      for (const sandbox of [false, true]) expect(logoHostRefusal(new URL(url), sandbox), url).not.toBeNull();
    for (const url of PUBLIC) expect(logoHostRefusal(new URL(url), false), url).toBeNull();
  });
});

describe.each(DIALECTS)('logo hosts on %s', (dialect) => {
  for (const sandbox of [false, true]) {
    describe(sandbox ? 'sandbox' : 'production', () => {
      let env: TempEnv;
      let merchantId: string;
      const owner = () => ({ merchantId, userId: 'usr_test', email: 'owner@shop.example', ip: '203.0.113.7' });
      beforeAll(async () => {
        env = await tempServices(dialect, {}, { sandbox });
        merchantId = (await seedDemo(env.services, env.dataDir)).merchantId;
        await env.services.selfService.settings.update(owner(), { logoUrl: 'https://cdn.shop.example/logo.png' });
      });
      afterAll(async () => {
        await env?.cleanup();
      });

      it(`loopback logos are ${sandbox ? 'accepted' : 'refused with 400 INVALID_URL'}; private ones refused; the stored logo unchanged by a refusal`, async () => {
        const settings = env.services.selfService.settings;
        const tries = [...LOOPBACK.map((u) => [u, !sandbox] as const), ...PRIVATE.map((u) => [u, true] as const)];
        for (const [url, refused] of tries) {
          const outcome = await settings.update(owner(), { logoUrl: url }).then(
            (s) => s.logoUrl,
            (e: unknown) => e,
          );
          if (refused) {
            expect(outcome, url).toBeInstanceOf(HostpayError);
            expect((outcome as HostpayError).code).toBe('INVALID_URL');
            expect((outcome as HostpayError).details).toEqual({ field: 'logoUrl' });
            expect((outcome as HostpayError).message).toMatch(/public host/);
            expect((await settings.get(merchantId)).logoUrl, url).toBe('https://cdn.shop.example/logo.png');
          } else {
            expect(outcome, url).toBe(new URL(url).href);
            await settings.update(owner(), { logoUrl: 'https://cdn.shop.example/logo.png' });
          }
        }
      });
    });
  }
});
