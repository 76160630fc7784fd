import { getAddress, parseEther, parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilBinary, startAnvil, type Anvil } from '../evm/anvil.js';
import { chainDriver, watchEnv, type ChainDriver, type WatchEnv } from '../evm/env.js';
import { freshAddress } from './common.js';
import { resultOf } from '../http-helpers/admin-fixture.js';

/**
 * verifyTransfer, which the manual sender uses for a transaction an operator reports: on the
 * node of the chain's watch, native payments by the transaction's recipient and value, tokens by
 * a Transfer log of the contract to the destination with the amount; confirmations from the head.
 */
const suite = anvilBinary === null ? describe.skip : describe;

suite('verifyTransfer on a real node (anvil)', () => {
  let anvil: Anvil;
  let chain: ChainDriver;
  let env: WatchEnv;
  let token: Address;
  let chainId: string;

  beforeAll(async () => {
    anvil = await startAnvil();
    chain = chainDriver(anvil);
    token = await chain.deployToken(6);
    env = await watchEnv('sqlite');
    chainId = (
      await env.services.store.db
        .selectFrom('chains')
        .select('id')
        .where('symbol', '=', 'ETH')
        .executeTakeFirstOrThrow()
    ).id;
  }, 60_000);

  afterAll(async () => {
    await env?.close();
    await anvil?.stop();
  });

  it('a chain without a watch has no node to ask: not decided, with the reason', async () => {
    const got = await env.services.hotWallet.verifyTransfer(chainId, `0x${'1'.repeat(64)}`, {
      to: freshAddress(),
      contract: null,
      amountBaseUnits: 1n,
    });
    expect(got).toEqual({ ok: false, retry: true, reason: expect.stringContaining('no watch') });
  });

  it('native and token payments: matched exactly, or refused naming what differs; unknown hashes wait', async () => {
    resultOf(await env.admin('PUT', '/chains/ETH/watch', { body: { rpcUrl: anvil.url, confirmations: 3 } }));
    const verify = env.services.hotWallet.verifyTransfer;
    const to = freshAddress();
    const eth = await chain.payEth(to, '0.3');
    await chain.mine(1);
    expect(await verify(chainId, eth, { to, contract: null, amountBaseUnits: parseEther('0.3') })).toMatchObject({
      ok: true,
      confirmations: 2,
    });
    expect(await verify(chainId, eth, { to, contract: null, amountBaseUnits: parseEther('0.31') })).toMatchObject({
      ok: false,
      retry: false,
      reason: expect.stringContaining('base units'),
    });
    expect(
      await verify(chainId, eth, { to: freshAddress(), contract: null, amountBaseUnits: parseEther('0.3') }),
    ).toMatchObject({
      ok: false,
      retry: false,
    });
    // A native payment is not a token payment of the same amount.
    expect(await verify(chainId, eth, { to, contract: token, amountBaseUnits: parseEther('0.3') })).toMatchObject({
      ok: false,
    });

    const usdt = await chain.payToken(token, to, '7.5');
    // The destination as the payout spells it (EIP-55 mixed case) matches the log's lower-case topic.
    expect(
      await verify(chainId, usdt, { to: getAddress(to), contract: token, amountBaseUnits: parseUnits('7.5', 6) }),
    ).toMatchObject({
      ok: true,
      confirmations: 1,
    });
    expect(await verify(chainId, usdt, { to, contract: token, amountBaseUnits: parseUnits('7.4', 6) })).toMatchObject({
      ok: false,
      retry: false,
    });
    expect(
      await verify(chainId, usdt, { to, contract: freshAddress(), amountBaseUnits: parseUnits('7.5', 6) }),
    ).toMatchObject({
      ok: false,
    });
    expect(await verify(chainId, `0x${'ab'.repeat(32)}`, { to, contract: null, amountBaseUnits: 1n })).toMatchObject({
      ok: false,
      retry: true,
    });
  });
});
