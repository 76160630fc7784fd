import { parseEther, type Address, type Hash } from 'viem';
import { expect } from 'vitest';
import { startAnvil, type Anvil } from '../evm/anvil.js';
import { chainDriver, type ChainDriver } from '../evm/env.js';
import type { HttpFixture } from './fixture.js';
import { adminCaller, resultOf } from './admin-fixture.js';

export interface StuckPayout {
  anvil: Anvil;
  chain: ChainDriver;
  hot: Address;
  payoutId: string;
  txHash: string;
}

/**
 * A payout the hot wallet sent on a real node (anvil) with mining paused: `sent`, its transaction
 * in the node's pool (or, `forgotten`, dropped from it while the wallet has no coin for gas, so
 * the sender's next round finds it gone and the node refuses it again). The caller stops anvil.
 */
export async function stuckHotWalletPayout(fx: HttpFixture, opts: { forgotten?: boolean } = {}): Promise<StuckPayout> {
  const ctx = { operator: 'test' };
  const admin = adminCaller(() => fx.app);
  const anvil = await startAnvil();
  const chain = chainDriver(anvil);
  resultOf(
    await admin('PUT', '/chains/ETH/watch', {
      body: { rpcUrl: anvil.url, confirmations: 1, pollIntervalMs: 500, startBlock: (await chain.head()) + 1 },
    }),
  );
  const hot = resultOf(await admin('PUT', '/chains/ETH/hot-wallet', { body: {} })).address as Address;
  await chain.test.setBalance({ address: hot, value: parseEther('1') });
  await chain.test.setAutomine(false);
  const merchantId = await fx.createMerchant('Stuck Payout Shop');
  const walletId = (await fx.services.admin.createWallet({ merchantId, asset: 'ETH', chain: 'ETH' }, ctx)).id;
  await fx.services.admin.post({ walletId, kind: 'credit', amount: '1' }, ctx);
  const dst = await fx.services.payouts.addDestination(merchantId, { chain: 'ETH', address: `0x${'ab'.repeat(20)}` });
  await fx.services.payouts.activateDestination(dst.id, ctx);
  const p = await fx.services.payouts.create(merchantId, { walletId, amount: '0.1', destinationId: dst.id });
  if (p.status === 'pending_approval') await fx.services.payouts.approve(p.id, ctx);
  expect(await fx.services.hotWallet.sender.round('ETH')).toMatchObject({ sent: 1 });
  const txHash = (await fx.services.payouts.getAny(p.id)).txHash!;
  if (opts.forgotten) {
    await chain.test.dropTransaction({ hash: txHash as Hash });
    await chain.test.setBalance({ address: hot, value: 0n });
    await fx.services.hotWallet.sender.round('ETH');
  }
  return { anvil, chain, hot, payoutId: p.id, txHash };
}
