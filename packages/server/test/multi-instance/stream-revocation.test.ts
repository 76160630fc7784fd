import { signV2, SIGNATURE_VERSION_HEADER, unixTimestamp } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster, type MerchantKey } from './cluster.js';

/**
 * Issue 24, item 3, across instances: an event stream open on one instance ends within a second
 * or two of a revocation or suspension made through the other (which reaches it only through the
 * shared change feed: PostgreSQL + Redis).
 */

const STREAM = '/api/v1/cp/events/stream';

/** Opens the stream on `url` with version-2 headers; `ended()` resolves with all it received once the server ends it. */
async function openStream(url: string, key: MerchantKey, token: string) {
  const timestamp = unixTimestamp();
  const controller = new AbortController();
  const res = await fetch(`${url}${STREAM}`, {
    headers: {
      'api-key': key.apiKey,
      timestamp,
      signature: signV2(key.apiSecret, timestamp, 'GET', STREAM),
      [SIGNATURE_VERSION_HEADER]: '2',
      authorization: `Bearer ${token}`,
    },
    signal: controller.signal,
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let done = false;
  const pump = (async () => {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    done = true;
  })().catch(() => undefined);
  return {
    res,
    text: () => text,
    /** Resolves with the text once the stream ended, or with undefined after `ms`. */
    async ended(ms: number): Promise<string | undefined> {
      const timer = new Promise<'late'>((r) => setTimeout(() => r('late'), ms));
      const outcome = await Promise.race([pump.then(() => 'done' as const), timer]);
      return outcome === 'done' && done ? text : undefined;
    },
    async opened(): Promise<void> {
      for (let i = 0; i < 200 && !text.includes('retry: 1000'); i++) await new Promise((r) => setTimeout(r, 25));
      expect(text).toContain('retry: 1000');
    },
    close: () => controller.abort(),
  };
}

describe.runIf(clusterAvailable)('revocation through one instance ends the event streams of the other', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 90_000);
  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  for (const [what, code, act] of [
    ['revoking the key', 'KEY_REVOKED', (s: { keyId: string }) => `/keys/${s.keyId}/revoke`],
    [
      'suspending the merchant',
      'MERCHANT_SUSPENDED',
      (s: { merchantId: string }) => `/merchants/${s.merchantId}/suspend`,
    ],
  ] as const) {
    it(`${what} through B ends the stream open on A within 2 s (${code})`, async () => {
      const seeded = await cluster.seed();
      const token = await cluster.token(0, seeded.key);
      const stream = await openStream(cluster.instances[0].url, seeded.key, token);
      try {
        expect(stream.res.status).toBe(200);
        await stream.opened();
        await cluster.adminOk(1, 'POST', act(seeded as { keyId: string; merchantId: string }));
        const started = performance.now();
        const text = await stream.ended(4000);
        expect(text, `the stream on A was still open 4 s after ${what} through B: ${stream.text()}`).toBeDefined();
        expect(performance.now() - started).toBeLessThan(2000);
        expect(text).toContain(`: stream ended: ${code}\n\n`);
      } finally {
        stream.close();
      }
    });
  }
});
