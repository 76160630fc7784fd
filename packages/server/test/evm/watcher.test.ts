import { Decimal } from '@hostpay/protocol';
import { createServer, type Server } from 'node:http';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../http-helpers/admin-fixture.js';
import { waitFor } from '../helpers.js';
import { anvilBinary, startAnvil, type Anvil } from './anvil.js';
import { balance, checkoutState, ethCheckout, eventTypes } from './common.js';
import { chainDriver, watchEnv, type ChainDriver, type WatchEnv } from './env.js';

/**
 * The EVM watcher against a real node (anvil): token and native payments settle by themselves,
 * a shallow reorganisation is undone, a restart loses and doubles nothing, a provider's range
 * limit is lived with, and a failing node shows without stopping anything. SQLite; the
 * several-instance cases are in instances.test.ts (PostgreSQL).
 */
const suite = anvilBinary === null ? describe.skip : describe;

suite('EVM watcher on a real node (anvil)', () => {
  let anvil: Anvil;
  let chain: ChainDriver;
  let env: WatchEnv;
  let token: Address;

  beforeAll(async () => {
    anvil = await startAnvil();
    chain = chainDriver(anvil);
    token = await chain.deployToken(6);
    env = await watchEnv('sqlite');
    const watch = resultOf(
      await env.admin('PUT', '/chains/ETH/watch', {
        body: {
          rpcUrl: anvil.url,
          tokens: [{ asset: 'USDT', contract: token, decimals: 6 }],
          confirmations: 3,
          pollIntervalMs: 500,
          startBlock: (await chain.head()) + 1,
        },
      }),
    );
    expect(watch).toMatchObject({
      chain: 'ETH',
      nativeAsset: 'ETH',
      nativeDecimals: 18,
      confirmations: 3,
      tokens: [{ asset: 'USDT', contract: token.toLowerCase(), decimals: 6 }],
    });
  }, 60_000);

  afterAll(async () => {
    await env?.close();
    await anvil?.stop();
  });

  /** Rounds until the watcher has scanned up to the head. */
  async function catchUp(watcher = env.services.chainWatch.watcher) {
    for (let i = 0; i < 100; i++) {
      const r = await watcher.round('ETH');
      if (r.leader && r.caughtUp) return;
    }
    throw new Error('the watcher did not catch up in 100 rounds');
  }

  it('a token payment settles by itself: open → processing → settled, wallet credited by the net amount', async () => {
    const c = await ethCheckout(env.services, env.merchantId, '25', 'USDT', 'USDT');
    const before = await balance(env.services, env.merchantId, 'USDT');
    expect((await checkoutState(env.services, c.id)).status).toBe('open');
    const tx = await chain.payToken(token, c.address, c.due);
    await catchUp();
    let s = await checkoutState(env.services, c.id);
    // One confirmation of three: seen, not credited.
    expect(s.status).toBe('processing');
    expect(s.transfers).toEqual([expect.objectContaining({ tx_hash: tx, confirmations: 1, retracted: 0 })]);
    expect(new Decimal(s.transfers[0]!.amount).toFixed()).toBe(c.due);
    expect((await balance(env.services, env.merchantId, 'USDT')).equals(before)).toBe(true);
    await chain.mine(1);
    await catchUp();
    expect((await checkoutState(env.services, c.id)).status).toBe('processing');
    await chain.mine(1);
    await catchUp();
    s = await checkoutState(env.services, c.id);
    expect(s.status).toBe('settled');
    expect(s.timeline).toEqual(['open', 'processing', 'settled']);
    expect(s.transfers[0]!.confirmations).toBe(3);
    expect((await balance(env.services, env.merchantId, 'USDT')).minus(before).equals(c.net)).toBe(true);
    expect(await eventTypes(env.services, c.id)).toEqual(['checkout.processing', 'checkout.settled']);
  });

  it('a native ETH payment settles by itself, the amount exact to the wei', async () => {
    const c = await ethCheckout(env.services, env.merchantId, '0.123456789012345678', 'ETH', 'ETH');
    const before = await balance(env.services, env.merchantId, 'ETH');
    const tx = await chain.payEth(c.address, c.due);
    await catchUp();
    expect((await checkoutState(env.services, c.id)).status).toBe('processing');
    await chain.mine(2);
    await catchUp();
    const s = await checkoutState(env.services, c.id);
    expect(s.status).toBe('settled');
    expect(s.transfers).toEqual([expect.objectContaining({ tx_hash: tx, log_index: 0, confirmations: 3 })]);
    expect(new Decimal(s.transfers[0]!.amount).toFixed()).toBe(c.due);
    expect((await balance(env.services, env.merchantId, 'ETH')).minus(before).equals(c.net)).toBe(true);
  });

  it('a reorganisation before the depth retracts the payment (processing → open); mined again, it counts once', async () => {
    const c = await ethCheckout(env.services, env.merchantId, '40', 'USDT', 'USDT');
    const before = await balance(env.services, env.merchantId, 'USDT');
    await catchUp();
    const raw = await chain.signTokenTransfer(token, c.address, c.due);
    const snapshot = await chain.snapshot();
    const tx = await chain.sendRaw(raw);
    await catchUp();
    expect((await checkoutState(env.services, c.id)).status).toBe('processing');

    // The block with the payment is replaced by a longer chain without it.
    await chain.revert(snapshot);
    await chain.mine(3);
    await catchUp();
    let s = await checkoutState(env.services, c.id);
    expect(s.status).toBe('open');
    expect(s.timeline).toEqual(['open', 'processing', 'open:payment_retracted']);
    expect(s.transfers).toEqual([expect.objectContaining({ tx_hash: tx, retracted: 1 })]);
    expect(await eventTypes(env.services, c.id)).toEqual(['checkout.processing']);

    // The same signed transaction mined again: the same transfer, live again, with the
    // confirmations of its new block (not the ones of the replaced block).
    await chain.sendRaw(raw);
    await catchUp();
    s = await checkoutState(env.services, c.id);
    expect(s.status).toBe('processing');
    expect(s.transfers).toEqual([expect.objectContaining({ tx_hash: tx, retracted: 0, confirmations: 1 })]);
    await chain.mine(2);
    await catchUp();
    s = await checkoutState(env.services, c.id);
    expect(s.status).toBe('settled');
    expect(s.transfers).toHaveLength(1);
    expect((await balance(env.services, env.merchantId, 'USDT')).minus(before).equals(c.net)).toBe(true);
  });

  it('a reorganisation deeper than nothing credited: a settled checkout stays settled', async () => {
    const c = await ethCheckout(env.services, env.merchantId, '12', 'USDT', 'USDT');
    await catchUp();
    await chain.payToken(token, c.address, c.due);
    await chain.mine(2);
    await catchUp();
    expect((await checkoutState(env.services, c.id)).status).toBe('settled');
    // A reorganisation above the payment's block (within the depth of others) leaves it alone.
    const snapshot = await chain.snapshot();
    await chain.mine(1);
    await catchUp();
    await chain.revert(snapshot);
    await chain.mine(2);
    await catchUp();
    const s = await checkoutState(env.services, c.id);
    expect(s.status).toBe('settled');
    expect(s.transfers).toEqual([expect.objectContaining({ retracted: 0 })]);
  });

  it('killed mid-range and restarted: every transfer counted once', async () => {
    await catchUp();
    const paid: (Awaited<ReturnType<typeof ethCheckout>> & { asset: string; tx: string })[] = [];
    for (const [amount, asset] of [
      ['31', 'USDT'],
      ['0.25', 'ETH'],
      ['32', 'USDT'],
      ['33', 'USDT'],
    ] as const) {
      const c = await ethCheckout(env.services, env.merchantId, amount, asset, asset);
      paid.push({
        ...c,
        asset,
        tx: asset === 'ETH' ? await chain.payEth(c.address, c.due) : await chain.payToken(token, c.address, c.due),
      });
    }
    await chain.mine(2);
    const usdtBefore = await balance(env.services, env.merchantId, 'USDT');
    const ethBefore = await balance(env.services, env.merchantId, 'ETH');
    // The instance that watches now takes one block per round, and dies after its first round.
    const first = env.services.chainWatch.spawnWatcher({ maxLogBlocks: 1, nativeBlocks: 1 });
    await env.services.chainWatch.watcher.stop();
    env.clock.offsetMs += 31_000;
    expect(await first.round('ETH')).toMatchObject({ leader: true, reported: 1 });
    // The next one is killed after reporting and before saving its cursor.
    env.clock.offsetMs += 31_000;
    const killed = env.services.chainWatch.spawnWatcher({
      maxLogBlocks: 2,
      nativeBlocks: 2,
      beforeCursorSave: () => Promise.reject(new Error('killed')),
    });
    await expect(killed.round('ETH')).rejects.toThrow('killed');
    // A third takes over once the lease has run out and scans the rest, that range again included.
    env.clock.offsetMs += 31_000;
    const third = env.services.chainWatch.spawnWatcher();
    await catchUp(third);
    for (const p of paid) {
      const s = await checkoutState(env.services, p.id);
      expect(s.status, p.asset).toBe('settled');
      expect(s.transfers).toEqual([expect.objectContaining({ tx_hash: p.tx, retracted: 0 })]);
      expect(await eventTypes(env.services, p.id)).toEqual(['checkout.processing', 'checkout.settled']);
    }
    const net = (asset: string) =>
      paid.filter((p) => p.asset === asset).reduce((sum, p) => sum.plus(p.net), new Decimal(0));
    expect((await balance(env.services, env.merchantId, 'USDT')).minus(usdtBefore).equals(net('USDT'))).toBe(true);
    expect((await balance(env.services, env.merchantId, 'ETH')).minus(ethBefore).equals(net('ETH'))).toBe(true);
    await third.stop();
  });

  it('a node a few blocks behind (load-balanced provider) retracts nothing; the payment settles once', async () => {
    const c = await ethCheckout(env.services, env.merchantId, '44', 'USDT', 'USDT');
    const before = await balance(env.services, env.merchantId, 'USDT');
    // Its own watcher, stopped at the end: the lease goes back for the tests after this one.
    const watcher = env.services.chainWatch.spawnWatcher();
    await chain.payToken(token, c.address, c.due);
    await chain.mine(1);
    await catchUp(watcher);
    expect((await checkoutState(env.services, c.id)).status).toBe('processing');
    // The same chain, seen through a node two blocks behind: the payment's block and the one
    // after it are above that node's head.
    const proxy = await laggingProxy(anvil, 2);
    try {
      resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: proxy.url } }));
      await catchUp(watcher);
      await catchUp(watcher);
      const s = await checkoutState(env.services, c.id);
      expect(s.status).toBe('processing');
      expect(s.timeline).toEqual(['open', 'processing']);
      expect(s.transfers).toEqual([expect.objectContaining({ retracted: 0 })]);
    } finally {
      resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: anvil.url } }));
      await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    }
    await chain.mine(1);
    await catchUp(watcher);
    const s = await checkoutState(env.services, c.id);
    expect(s.status).toBe('settled');
    expect(s.timeline).toEqual(['open', 'processing', 'settled']);
    expect((await balance(env.services, env.merchantId, 'USDT')).minus(before).equals(c.net)).toBe(true);
    await watcher.stop();
  });

  it('a replaced block that one backend reports "not found" below its head: the round fails and decides nothing; the next node sees the reorganisation', async () => {
    const c = await ethCheckout(env.services, env.merchantId, '45', 'USDT', 'USDT');
    const watcher = env.services.chainWatch.spawnWatcher();
    await catchUp(watcher);
    const raw = await chain.signTokenTransfer(token, c.address, c.due);
    const snapshot = await chain.snapshot();
    await chain.sendRaw(raw);
    const paidIn = await chain.head();
    await catchUp(watcher);
    expect((await checkoutState(env.services, c.id)).status).toBe('processing');
    // The payment's block is replaced by a longer chain without it, and the node asked next has
    // no block at that height although its head is above it.
    await chain.revert(snapshot);
    await chain.mine(3);
    const proxy = await laggingProxy(anvil, 0, paidIn);
    try {
      resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: proxy.url } }));
      for (let i = 0; i < 3; i++)
        await expect(watcher.round('ETH')).rejects.toThrow(new RegExp(`no block ${paidIn} although its head`));
      // Neither credited on the old block's confirmations nor retracted on a guess.
      const s = await checkoutState(env.services, c.id);
      expect(s.status).toBe('processing');
      expect(s.transfers).toEqual([expect.objectContaining({ retracted: 0, confirmations: 1 })]);
    } finally {
      resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: anvil.url } }));
      await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    }
    await catchUp(watcher);
    const s = await checkoutState(env.services, c.id);
    expect(s.status).toBe('open');
    expect(s.timeline).toEqual(['open', 'processing', 'open:payment_retracted']);
    await watcher.stop();
  });

  it('a provider that refuses wide log ranges: the range halves until it answers, and nothing is missed', async () => {
    const refused: string[] = [];
    const proxy = await rangeLimitedProxy(anvil, 2, refused);
    try {
      await catchUp(env.services.chainWatch.spawnWatcher());
      resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: proxy.url, nativeAsset: null } }));
      const paid: Awaited<ReturnType<typeof ethCheckout>>[] = [];
      for (const amount of ['41', '42', '43']) {
        const c = await ethCheckout(env.services, env.merchantId, amount, 'USDT', 'USDT');
        await chain.payToken(token, c.address, c.due);
        await chain.mine(1);
        paid.push(c);
      }
      await chain.mine(2);
      env.clock.offsetMs += 31_000;
      await catchUp(env.services.chainWatch.spawnWatcher({ maxLogBlocks: 64 }));
      expect(refused.length).toBeGreaterThan(0);
      for (const c of paid) expect((await checkoutState(env.services, c.id)).status).toBe('settled');
    } finally {
      resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: anvil.url, nativeAsset: 'ETH' } }));
      await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    }
  });

  it('a node of another chain is refused, not taken for a reorganisation of everything', async () => {
    // The watcher of the test before holds the lease until it runs out.
    env.clock.offsetMs += 31_000;
    await catchUp();
    const retractedBefore = await env.services.store.db
      .selectFrom('transfers')
      .select('id')
      .where('retracted', '=', 1)
      .execute();
    const other = await startAnvil({ chainId: 1337 });
    try {
      resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: other.url } }));
      await expect(env.services.chainWatch.watcher.round('ETH')).rejects.toThrow(
        /network 1337, but ETH is watched on network 31337/,
      );
      expect(
        await env.services.store.db.selectFrom('transfers').select('id').where('retracted', '=', 1).execute(),
      ).toEqual(retractedBefore);
    } finally {
      resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: anvil.url } }));
      await other.stop();
    }
    expect(await env.services.chainWatch.watcher.round('ETH')).toMatchObject({ leader: true });
  });

  it('a WebSocket URL works the same (ws:// to the node)', async () => {
    env.clock.offsetMs += 31_000;
    resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: anvil.url.replace('http://', 'ws://') } }));
    const watcher = env.services.chainWatch.spawnWatcher();
    try {
      const c = await ethCheckout(env.services, env.merchantId, '0.5', 'ETH', 'ETH');
      await chain.payEth(c.address, c.due);
      await chain.mine(2);
      await catchUp(watcher);
      expect((await checkoutState(env.services, c.id)).status).toBe('settled');
    } finally {
      await watcher.stop();
      resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: anvil.url } }));
    }
  });

  it('a failing node: the round fails, is counted and shown (masked) in the watch, /readyz and /metrics; nothing stops', async () => {
    env.clock.offsetMs += 31_000;
    const secret = 'k3y0123456789abcdefSECRET';
    resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: `http://127.0.0.1:1/v3/${secret}` } }));
    const watcher = env.services.chainWatch.watcher;
    watcher.start();
    try {
      await waitFor(() => watcher.live('ETH')?.state === 'error', 'the failing round', 10_000);
      const watch = resultOf(await env.admin('GET', '/chains/ETH/watch'));
      expect(watch.status.state).toBe('error');
      expect(watch.rpcUrl).toBe('http://127.0.0.1:1/v3/***');
      expect(watch.status.lastError).toBeTruthy();
      expect(JSON.stringify(watch)).not.toContain(secret);
      const ready = await env.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(JSON.parse(ready.body).result.chains).toEqual([
        expect.objectContaining({ chain: 'ETH', state: 'error', leader: true }),
      ]);
      expect(ready.body).not.toContain(secret);
      const metrics = await env.app.hostpayMetrics.text();
      expect(metrics).toMatch(/hostpay_chain_node_errors_total\{chain="ETH"\} [1-9]/);
      const audit = await env.services.store.db
        .selectFrom('audit_log')
        .select(['before', 'after'])
        .where('action', '=', 'chain.watch.set')
        .execute();
      expect(JSON.stringify(audit)).not.toContain(secret);
      // Back to a working node: the same loop recovers by itself.
      resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: anvil.url } }));
      await waitFor(() => watcher.live('ETH')?.state === 'watching', 'the recovered round', 20_000);
    } finally {
      await watcher.stop();
    }
  });
});

type RpcCall = { id: number; method: string; params?: unknown[] };
type RpcAnswer = { jsonrpc: '2.0'; id: number; result?: unknown; error?: unknown };

/**
 * A JSON-RPC proxy to anvil: each call of a request (single or batched) is answered by `answer`,
 * which may pass it on with `forward`.
 */
async function rpcProxy(
  anvil: Anvil,
  answer: (call: RpcCall, forward: (call: RpcCall) => Promise<RpcAnswer>) => Promise<RpcAnswer>,
): Promise<{ server: Server; url: string }> {
  const forward = async (call: RpcCall): Promise<RpcAnswer> => {
    const res = await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', ...call }),
    });
    return { ...((await res.json()) as RpcAnswer), id: call.id };
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcCall | RpcCall[];
      void Promise.all([parsed].flat().map((call) => answer(call, forward))).then((answers) => {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** A provider that refuses eth_getLogs over more than `maxBlocks` blocks, as hosted providers do. */
function rangeLimitedProxy(anvil: Anvil, maxBlocks: number, refused: string[]) {
  return rpcProxy(anvil, async (call, forward) => {
    const range = call.params?.[0] as { fromBlock: string; toBlock: string } | undefined;
    if (
      call.method !== 'eth_getLogs' ||
      range === undefined ||
      Number(range.toBlock) - Number(range.fromBlock) + 1 <= maxBlocks
    )
      return forward(call);
    refused.push(`${range.fromBlock}-${range.toBlock}`);
    return {
      jsonrpc: '2.0',
      id: call.id,
      error: { code: -32005, message: `block range too large: at most ${maxBlocks} blocks per request` },
    };
  });
}

/**
 * A node `lag` blocks behind (its head is lower, and the blocks above that head are not found), or
 * one backend of a load-balanced provider that has not got block `hide` although its head is past it.
 */
function laggingProxy(anvil: Anvil, lag: number, hide?: number) {
  return rpcProxy(anvil, async (call, forward) => {
    const head = Number((await forward({ id: 0, method: 'eth_blockNumber', params: [] })).result) - lag;
    if (call.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: call.id, result: `0x${head.toString(16)}` };
    const asked = call.params?.[0];
    if (
      call.method === 'eth_getBlockByNumber' &&
      typeof asked === 'string' &&
      asked.startsWith('0x') &&
      (Number(asked) > head || Number(asked) === hide)
    )
      return { jsonrpc: '2.0', id: call.id, result: null };
    return forward(call);
  });
}
