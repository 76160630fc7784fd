import { parseEther, type Address, type Hash } from 'viem';
import { expect } from 'vitest';
import { startAnvil, type Anvil } from '../evm/anvil.js';
import { chainDriver, type ChainDriver } from '../evm/env.js';
import type { Services } from '../../src/services.js';

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
export async function stuckHotWalletPayout(
  services: Services,
  opts: { forgotten?: boolean } = {},
): Promise<StuckPayout> {
  const ctx = { operator: 'test' };
  const anvil = await startAnvil();
  const chain = chainDriver(anvil);
  await services.admin.setChainWatch(
    'ETH',
    { rpcUrl: anvil.url, confirmations: 1, pollIntervalMs: 500, startBlock: (await chain.head()) + 1 },
    ctx,
  );
  const hot = (await services.admin.setHotWallet('ETH', {}, ctx)).address as Address;
  await chain.test.setBalance({ address: hot, value: parseEther('1') });
  await chain.test.setAutomine(false);
  const merchantId = (await services.admin.createMerchant('Stuck Payout Shop', ctx)).id;
  const walletId = (await services.admin.createWallet({ merchantId, asset: 'ETH', chain: 'ETH' }, ctx)).id;
  await services.admin.post({ walletId, kind: 'credit', amount: '1' }, ctx);
  const dst = await services.payouts.addDestination(merchantId, { chain: 'ETH', address: `0x${'ab'.repeat(20)}` });
  await services.payouts.activateDestination(dst.id, ctx);
  const p = await services.payouts.create(merchantId, { walletId, amount: '0.1', destinationId: dst.id });
  if (p.status === 'pending_approval') await services.payouts.approve(p.id, ctx);
  expect(await services.hotWallet.sender.round('ETH')).toMatchObject({ sent: 1 });
  const txHash = (await services.payouts.getAny(p.id)).txHash!;
  if (opts.forgotten) {
    await chain.test.dropTransaction({ hash: txHash as Hash });
    await chain.test.setBalance({ address: hot, value: 0n });
    await services.hotWallet.sender.round('ETH');
  }
  return { anvil, chain, hot, payoutId: p.id, txHash };
}
