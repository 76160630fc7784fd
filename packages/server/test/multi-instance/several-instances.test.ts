import { PATHS } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, sleep, startCluster, type Cluster, type Reply } from './cluster.js';

/**
 * "Production mode", item 5: several instances behind a load balancer must not disagree
 * (PRODUCT.md, Storage and scale). Two server processes share PostgreSQL and Redis: the per-key
 * rate limit is one budget across both, a revocation through one is enforced by the other at
 * once, and a merchant's wallet list is the same bytes from either after a posting through the
 * other. Caches are warmed first — and shown to be serving from memory — so each test proves
 * invalidation through the change feed, not a cold read.
 */

const WALLETS = PATHS.wallets;

function errorCode(reply: Reply): string | undefined {
  return reply.json<{ error?: { code: string } }>().error?.code;
}

function expectRateLimited(reply: Reply, limit: number): void {
  expect(reply.status, reply.body).toBe(429);
  expect(errorCode(reply)).toBe('RATE_LIMITED');
  const retryAfter = reply.headers.get('retry-after');
  expect(retryAfter).toMatch(/^[0-9]+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  expect(reply.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(reply.headers.get('ratelimit-remaining')).toBe('0');
}

describe.runIf(clusterAvailable)('several instances share one state (PostgreSQL + Redis)', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster();
  }, 90_000);
  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  it('a key limited to 20 a minute gets 20 requests in total across both instances, then 429 with Retry-After on both', async () => {
    const LIMIT = 20;
    const { key } = await cluster.seed({ rateLimitPerMinute: LIMIT });
    // The token request is a request of the key too: it is the first of the 20.
    const tokenReply = await cluster.requestToken(0, key);
    expect(tokenReply.status, tokenReply.body).toBe(200);
    expect(tokenReply.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(tokenReply.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    const token = tokenReply.json<{ result: { accessToken: string } }>().result.accessToken;

    // One at a time, alternating B, A, B, …: the remaining count is one counter for both.
    const replies: Reply[] = [];
    for (let n = 1; n < 2 * LIMIT; n++) replies.push(await cluster.merchantGet(n % 2, key, token, WALLETS));
    for (const [i, reply] of replies.entries()) {
      const n = i + 1;
      if (n < LIMIT) {
        expect(reply.status, `request ${n} (instance ${reply.instance}): ${reply.body}`).toBe(200);
        expect(reply.headers.get('ratelimit-remaining'), `request ${n}`).toBe(String(LIMIT - 1 - n));
      } else {
        expectRateLimited(reply, LIMIT);
      }
    }
    const allowed = [tokenReply, ...replies].filter((r) => r.status === 200);
    expect(allowed).toHaveLength(LIMIT);
    expect(allowed.filter((r) => r.instance === 0)).toHaveLength(LIMIT / 2);
    expect(allowed.filter((r) => r.instance === 1)).toHaveLength(LIMIT / 2);
    expect(replies.filter((r) => r.status === 429 && r.instance === 0).length).toBeGreaterThan(0);
    expect(replies.filter((r) => r.status === 429 && r.instance === 1).length).toBeGreaterThan(0);
  });

  it('40 requests at once on both instances under a limit of 20: exactly 20 succeed', async () => {
    const LIMIT = 20;
    const { key } = await cluster.seed({ rateLimitPerMinute: LIMIT });
    const token = await cluster.token(1, key); // 1 of 20
    const replies = await Promise.all(
      Array.from({ length: 2 * LIMIT - 1 }, (_, i) => cluster.merchantGet(i % 2, key, token, WALLETS)),
    );
    const ok = replies.filter((r) => r.status === 200);
    const limited = replies.filter((r) => r.status === 429);
    expect(ok.length + limited.length, replies.map((r) => `${r.status} ${r.body}`).join('\n')).toBe(replies.length);
    expect(ok).toHaveLength(LIMIT - 1);
    for (const r of limited) expectRateLimited(r, LIMIT);
    // Every success saw a different remaining count: one atomic counter, no double grants.
    expect(new Set(ok.map((r) => r.headers.get('ratelimit-remaining'))).size).toBe(LIMIT - 1);
  });

  it('a key revoked through one instance is refused (403 KEY_REVOKED) by the other from the next request, well within 1 s, warm caches included', async () => {
    const measured: number[] = [];
    for (let round = 0; round < 10; round++) {
      const revoker = round % 2;
      const observer = 1 - revoker;
      const { key, keyId } = await cluster.seed();
      const token = await cluster.token(revoker, key);
      // Warm both instances: the key (with its decrypted secret) is now in their key caches.
      for (const target of [observer, revoker, observer]) {
        const warm = await cluster.merchantGet(target, key, token, WALLETS);
        expect(warm.status, warm.body).toBe(200);
        expect(warm.headers.get('ratelimit-limit')).toBe('600');
      }
      // Proof that the observer answers from its cache: change the key behind every instance's
      // back (no invalidation is sent); the observer still applies the limit it cached.
      await cluster.db.query('update api_keys set rate_limit_per_minute = 7 where id = $1', [keyId]);
      const cached = await cluster.merchantGet(observer, key, token, WALLETS);
      expect(cached.status, cached.body).toBe(200);
      expect(cached.headers.get('ratelimit-limit'), 'the observer did not serve the key from its cache').toBe('600');

      await cluster.adminOk(revoker, 'POST', `/keys/${keyId}/revoke`);
      const revokedAt = performance.now();
      // Poll the other instance every 50 ms, starting at once, for at most 3 s.
      const polls: Reply[] = [];
      let refusedAfter: number | undefined;
      while (performance.now() - revokedAt < 3_000) {
        const reply = await cluster.merchantGet(observer, key, token, WALLETS);
        polls.push(reply);
        if (reply.status === 403) {
          expect(errorCode(reply), reply.body).toBe('KEY_REVOKED');
          refusedAfter = performance.now() - revokedAt;
          break;
        }
        expect(reply.status, reply.body).toBe(200);
        await sleep(50);
      }
      expect(
        refusedAfter,
        `round ${round}: ${'AB'[observer]} still accepted the key revoked through ${'AB'[revoker]} after 3 s`,
      ).toBeDefined();
      expect(refusedAfter!).toBeLessThan(1_000);
      // docs/admin-api.md: "refused from the next request" — on every instance, not eventually.
      expect(
        polls.length,
        `round ${round}: ${'AB'[observer]} accepted ${polls.length - 1} request(s) after the revocation through ${'AB'[revoker]} had answered`,
      ).toBe(1);
      measured.push(refusedAfter!);
      // The instance that revoked refuses too, and neither issues new tokens for the key.
      expect(errorCode(await cluster.merchantGet(revoker, key, token, WALLETS))).toBe('KEY_REVOKED');
      for (const target of [0, 1]) {
        const reply = await cluster.requestToken(target, key);
        expect(reply.status, reply.body).toBe(403);
        expect(errorCode(reply)).toBe('KEY_REVOKED');
      }
    }
    console.log(
      `[multi-instance] revocation seen by the other instance after ${Math.min(...measured).toFixed(1)}–${Math.max(...measured).toFixed(1)} ms (10 revocations, both directions; each refused on the first request after the revoke answered)`,
    );
  });

  it('the wallet list is the same bytes from either instance after each posting through the other, warm caches included', async () => {
    const { merchantId, key, walletIds } = await cluster.seed({
      wallets: [
        { asset: 'ETH', chain: 'ETH' },
        { asset: 'USDT', chain: 'TRON' },
      ],
    });
    const [eth, usdt] = walletIds as [string, string];
    // A token from A is accepted by B: both derive the signing key from the master key.
    const token = await cluster.token(0, key);
    const list = async (target: number): Promise<Reply> => {
      const reply = await cluster.merchantGet(target, key, token, WALLETS);
      expect(reply.status, reply.body).toBe(200);
      return reply;
    };
    await cluster.adminOk(0, 'POST', `/wallets/${eth}/postings`, {
      body: { kind: 'credit', amount: '1.000000000000000001' },
      status: 201,
    });
    let previous = (await list(0)).body;
    expect((await list(1)).body).toBe(previous);

    const lags: number[] = [];
    for (let round = 0; round < 12; round++) {
      const writer = round % 2;
      const reader = 1 - writer;
      // Behind the servers' back, flip the USDT wallet's active flag: no invalidation is sent,
      // so both instances keep answering from memory. That shows the caches are warm.
      const flipped = await cluster.db.query<{ active: number }>(
        'update wallets set active = 1 - active where id = $1 returning active',
        [usdt],
      );
      const usdtActive = flipped.rows[0]!.active === 1;
      expect((await list(reader)).body, `round ${round}: instance ${'AB'[reader]} did not answer from its cache`).toBe(
        previous,
      );
      expect((await list(writer)).body, `round ${round}: instance ${'AB'[writer]} did not answer from its cache`).toBe(
        previous,
      );

      // A posting through the writer; then the reader's list, at once, then the writer's.
      const kind = round % 3 === 2 ? 'freeze' : 'credit';
      const { posting } = await cluster.adminOk<{ posting: { amountAfter: string; freezeAmountAfter: string } }>(
        writer,
        'POST',
        `/wallets/${eth}/postings`,
        {
          body: { kind, amount: `0.${'0'.repeat(round)}25` },
          idempotencyKey: `list-${eth}-${round}`,
          status: 201,
        },
      );
      const postedAt = performance.now();
      const fromReader = await list(reader);
      lags.push(performance.now() - postedAt);
      const fromWriter = await list(writer);
      expect(fromReader.body, `round ${round}: instances disagree after a posting through ${'AB'[writer]}`).toBe(
        fromWriter.body,
      );
      expect(fromReader.body).not.toBe(previous);
      // Both re-read the store: the posting and the flag flipped behind their back.
      const wallets = fromReader.json<{
        result: Array<{ id: string; amount: string; freezeAmount: string; active: boolean }>;
      }>().result;
      expect(wallets.find((w) => w.id === eth)).toMatchObject({
        amount: posting.amountAfter,
        freezeAmount: posting.freezeAmountAfter,
        active: true,
      });
      expect(wallets.find((w) => w.id === usdt)).toMatchObject({ amount: '0', active: usdtActive });
      previous = fromReader.body;
    }
    // The operator's view agrees too.
    const [adminA, adminB] = await Promise.all(
      [0, 1].map((t) => cluster.admin(t, 'GET', `/wallets?merchantId=${merchantId}`)),
    );
    expect(adminA!.status, adminA!.body).toBe(200);
    expect(adminB!.body).toBe(adminA!.body);
    console.log(
      `[multi-instance] wallet list: 12 postings, reader answered in ${Math.min(...lags).toFixed(1)}–${Math.max(...lags).toFixed(1)} ms after the posting's reply, always the new bytes`,
    );
  });
});
