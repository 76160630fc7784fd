import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskRpcUrl, rpcAddressAllowed, scrubMessage } from '../../src/features/chain-watch/node-url.js';
import { errorOf, resultOf } from '../http-helpers/admin-fixture.js';
import { watchEnv, type WatchEnv } from './env.js';

/**
 * The operators' side of the watcher, without a node: what a watch accepts and refuses, that the
 * RPC URL (a secret: providers put their key in it) is never shown or audited in clear, and the
 * SSRF guard on the node's address.
 */
describe('chain watch settings', () => {
  let env: WatchEnv;
  let production: WatchEnv;
  const answers: Record<string, LookupAddress[]> = {
    'node.example': [{ address: '93.184.216.34', family: 4 }],
    'inside.example': [{ address: '10.1.2.3', family: 4 }],
  };
  const resolve = async (host: string) =>
    answers[host] ?? Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));

  beforeAll(async () => {
    env = await watchEnv('sqlite');
    production = await watchEnv('sqlite', {}, { sandbox: false, resolve });
  });
  afterAll(async () => {
    await env?.close();
    await production?.close();
  });

  it('sets a watch with the catalog defaults, shows the URL masked, keeps it sealed and out of the audit log', async () => {
    const secret = '0a1b2c3d4e5f60718293a4b5c6d7e8f9';
    const w = resultOf(
      await env.admin('PUT', '/chains/ETH/watch', {
        body: { rpcUrl: `https://user:pass@127.0.0.1:8545/v3/${secret}?apikey=${secret}`, apiKey: `key-${secret}` },
      }),
    );
    expect(w).toMatchObject({
      chain: 'ETH',
      kind: 'evm-rpc',
      apiKeySet: true,
      networkId: null,
      rpcUrl: 'https://***@127.0.0.1:8545/v3/***?apikey=***',
      // The catalog's USDT and USDC contracts on Ethereum, at the assets' precision.
      tokens: [
        { asset: 'USDC', contract: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 },
        { asset: 'USDT', contract: '0xdac17f958d2ee523a2206206994597c13d831ec7', decimals: 6 },
      ],
      nativeAsset: 'ETH',
      nativeDecimals: 18,
      pollIntervalMs: 4000,
      enabled: true,
      status: { state: 'standby', cursorBlock: null, leaseHolder: null },
    });
    const stored = await env.services.store.db.selectFrom('chain_watches').selectAll().executeTakeFirstOrThrow();
    const audit = await env.services.store.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', 'like', 'chain.watch%')
      .execute();
    expect(audit.map((a) => a.operator)).toEqual(['alice']);
    expect(JSON.stringify([stored, audit, w])).not.toContain(secret);
    expect(JSON.stringify(resultOf(await env.admin('GET', '/chain-watches')))).not.toContain(secret);

    // Left out, the URL stays; the confirmations are the chain's own, and the next checkout asks for them.
    const confirmationsOfNewCheckout = async () =>
      (
        (await env.services.checkouts.create(env.merchantId, {
          amount: '10',
          currency: 'USDT',
          paymentOptions: [{ asset: 'USDT', chain: 'ETH' }],
        } as never)) as unknown as { paymentOptions: { confirmationsRequired: number }[] }
      ).paymentOptions[0]!.confirmationsRequired;
    expect(await confirmationsOfNewCheckout()).not.toBe(5);
    const changed = resultOf(
      await env.admin('PUT', '/chains/ETH/watch', {
        body: {
          pollIntervalMs: 1000,
          confirmations: 5,
          tokens: [{ asset: 'USDT' }],
          nativeAsset: null,
          apiKey: null,
          networkId: '1',
        },
      }),
    );
    expect(changed).toMatchObject({
      rpcUrl: w.rpcUrl,
      kind: 'evm-rpc',
      apiKeySet: false,
      networkId: '1',
      pollIntervalMs: 1000,
      confirmations: 5,
      tokens: [{ asset: 'USDT' }],
      nativeAsset: null,
    });
    expect(resultOf(await env.admin('GET', '/chains/ETH')).confirmationsRequired).toBe(5);
    expect(await confirmationsOfNewCheckout()).toBe(5);

    resultOf(await env.admin('DELETE', '/chains/ETH/watch'));
    errorOf(await env.admin('GET', '/chains/ETH/watch'), 404, 'NOT_FOUND');
    expect(
      (
        await env.services.store.db
          .selectFrom('audit_log')
          .select('action')
          .where('action', 'like', 'chain.watch%')
          .execute()
      ).map((a) => a.action),
    ).toEqual(['chain.watch.set', 'chain.watch.set', 'chain.watch.delete']);
  });

  it('refuses what cannot be watched, saying what to fix, and writes nothing', async () => {
    const put = (symbol: string, body: unknown) => env.admin('PUT', `/chains/${symbol}/watch`, { body });
    const url = 'http://127.0.0.1:8545';
    // An adapter kind of another chain family; a kind no adapter has; a network id that cannot be one.
    expect(errorOf(await put('ETH', { rpcUrl: url, kind: 'esplora' }), 400, 'INVALID_BODY').message).toMatch(
      /esplora talks to btc nodes, but ETH is a evm chain/,
    );
    expect(errorOf(await put('BTC', { rpcUrl: url, kind: 'evm-rpc' }), 400, 'INVALID_BODY').message).toMatch(
      /evm-rpc talks to evm nodes/,
    );
    errorOf(await put('ETH', { rpcUrl: url, kind: 'geth' }), 400, 'INVALID_BODY');
    errorOf(await put('ETH', { rpcUrl: url, networkId: '0x1 ' }), 400, 'INVALID_BODY');
    errorOf(await put('ETH', { rpcUrl: url, apiKey: '' }), 400, 'INVALID_BODY');
    errorOf(await put('NOPE', { rpcUrl: url }), 404, 'NOT_FOUND');
    expect(errorOf(await put('ETH', {}), 400, 'INVALID_BODY').message).toMatch(/rpcUrl is required/);
    errorOf(await put('ETH', { rpcUrl: 'ftp://127.0.0.1/' }), 400, 'INVALID_URL');
    errorOf(await put('ETH', { rpcUrl: 'not a url' }), 400, 'INVALID_URL');
    expect(errorOf(await put('ETH', { rpcUrl: url, tokens: [{ asset: 'BTC' }] }), 400, 'INVALID_BODY').message).toMatch(
      /BTC has no network on this chain/,
    );
    expect(
      errorOf(await put('ETH', { rpcUrl: url, tokens: [{ asset: 'USDT', decimals: 18 }] }), 400, 'INVALID_BODY')
        .message,
    ).toMatch(/18 decimals.*precision 6.*raise/);
    expect(
      errorOf(await put('ETH', { rpcUrl: url, tokens: [{ asset: 'USDT' }, { asset: 'USDT' }] }), 400, 'INVALID_BODY')
        .message,
    ).toMatch(/listed twice/);
    errorOf(await put('ETH', { rpcUrl: url, tokens: [{ asset: 'USDT', contract: '0x12' }] }), 400, 'INVALID_BODY');
    errorOf(await put('ETH', { rpcUrl: url, nativeAsset: 'USDT' }), 400, 'INVALID_BODY');
    errorOf(await put('ETH', { rpcUrl: url, pollIntervalMs: 10 }), 400, 'INVALID_BODY');
    errorOf(await put('ETH', { rpcUrl: url, secret: 'x' }), 400, 'INVALID_BODY');
    expect(await env.services.store.db.selectFrom('chain_watches').selectAll().execute()).toEqual([]);
  });

  it('the node address passes the SSRF guard: public only, this host and private networks when the operator allows them, never metadata', async () => {
    const put = (rpcUrl: string, allowPrivateRpc?: boolean) =>
      production.admin('PUT', '/chains/ETH/watch', {
        body: { rpcUrl, ...(allowPrivateRpc === undefined ? {} : { allowPrivateRpc }) },
      });
    resultOf(await put('https://node.example/v2/0123456789abcdef0123'));
    for (const refused of [
      'http://127.0.0.1:8545',
      'http://[::1]:8545',
      'http://10.0.0.5:8545',
      'http://0x7f000001:8545',
      'https://inside.example/',
      'https://nowhere.example/',
    ]) {
      expect(errorOf(await put(refused), 400, 'INVALID_URL').message, refused).toMatch(/refused/);
    }
    resultOf(await put('http://127.0.0.1:8545', true));
    resultOf(await put('http://10.0.0.5:8545', true));
    resultOf(await put('https://inside.example/', true));
    for (const never of [
      'http://169.254.169.254/',
      'http://169.254.1.1/',
      'http://224.0.0.1/',
      'http://0.0.0.0:8545',
    ]) {
      errorOf(await put(never, true), 400, 'INVALID_URL');
    }
    expect(rpcAddressAllowed('metadata', { sandbox: true, allowPrivate: true })).toBe(false);
    expect(rpcAddressAllowed('loopback', { sandbox: true, allowPrivate: false })).toBe(true);
    expect(rpcAddressAllowed('private', { sandbox: true, allowPrivate: false })).toBe(false);
  });

  it("a change without rpcUrl never fails on the stored node's DNS; making the address rule stricter re-checks it", async () => {
    const put = (body: Record<string, unknown>) => production.admin('PUT', '/chains/ETH/watch', { body });
    answers['flaky.example'] = [{ address: '93.184.216.34', family: 4 }];
    resultOf(await put({ rpcUrl: 'https://flaky.example/v2/0123456789abcdef0123' }));
    // The node's name stops resolving (an outage at the DNS provider): the operator can still
    // turn the watch off and change its other settings.
    delete answers['flaky.example'];
    expect(resultOf<{ enabled: boolean }>(await put({ enabled: false })).enabled).toBe(false);
    const sealed = async () =>
      (
        await production.services.store.db
          .selectFrom('chain_watches')
          .select('rpc_url_sealed')
          .executeTakeFirstOrThrow()
      ).rpc_url_sealed;
    const sealedBefore = await sealed();
    expect(resultOf<{ pollIntervalMs: number }>(await put({ pollIntervalMs: 5000 })).pollIntervalMs).toBe(5000);
    // The URL kept is kept as sealed (the watcher knows its connection by that text: no reconnect).
    expect(await sealed()).toBe(sealedBefore);
    // A node on a private network, then allowPrivateRpc taken away from a running watch: refused.
    resultOf(await put({ rpcUrl: 'https://inside.example/', allowPrivateRpc: true, enabled: true }));
    expect(errorOf(await put({ allowPrivateRpc: false }), 400, 'INVALID_URL').message).toMatch(/refused/);
    // Turned off at the same time, it is accepted (nothing will connect)...
    resultOf(await put({ allowPrivateRpc: false, enabled: false }));
    // ...and turned on again under the stricter rule, it is checked again and refused.
    expect(errorOf(await put({ enabled: true }), 400, 'INVALID_URL').message).toMatch(/refused/);
    resultOf(await put({ enabled: true, allowPrivateRpc: true }));
  });

  it('masks every spelling of a key in URLs and in error messages', () => {
    expect(maskRpcUrl('https://eth-mainnet.g.alchemy.com/v2/AbCdEfGhIjKlMnOpQrStUv')).toBe(
      'https://eth-mainnet.g.alchemy.com/v2/***',
    );
    expect(maskRpcUrl('wss://mainnet.infura.io/ws/v3/0123456789abcdef0123456789abcdef')).toBe(
      'wss://mainnet.infura.io/ws/v3/***',
    );
    expect(maskRpcUrl('https://rpc.example/?key=abc&chain=1')).toBe('https://rpc.example/?key=***&chain=***');
    expect(maskRpcUrl('http://u:p@127.0.0.1:8545')).toBe('http://***@127.0.0.1:8545/');
    const url = 'https://u:hunter22@rpc.example/v3/0123456789abcdef0123?token=s3cr3t';
    const message = scrubMessage(`HTTP request failed. URL: ${url} Details: 0123456789abcdef0123 hunter22 s3cr3t`, url);
    for (const secret of ['hunter22', '0123456789abcdef0123', 's3cr3t']) expect(message).not.toContain(secret);
    expect(message).toContain('rpc.example');
  });
});
