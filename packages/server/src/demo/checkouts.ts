import type { Services } from '../services.js';
import { DEMO_PIN_SOURCE } from './seed.js';

/**
 * A few checkouts in different states for the demo, so the payment page, the lists, the console's
 * overview and the operator review have something to show: open, underpaid, processing (a payment
 * waiting for its confirmation), canceled, one in review (a payment in the wrong asset, TRX, which
 * the operator can settle at the demo's TRX rate), two settled (their credit is on the USDT TRON
 * wallet), and a transfer to an address no checkout owns (unmatched). Payments go through the
 * same transfers code as an indexer's.
 */
export async function seedDemoCheckouts(services: Services, merchantId: string): Promise<string[]> {
  const checkouts = services.checkouts;
  const tron = [{ asset: 'USDT', chain: 'TRON' }];
  const make = (amount: string, description: string, orderId: string) =>
    checkouts.create(merchantId, {
      amount,
      currency: 'EUR',
      description,
      orderId,
      paymentOptions: [...tron, { asset: 'USDT', chain: 'ETH' }],
      expiresIn: 86_400,
    });
  const pay = async (c: Awaited<ReturnType<typeof make>>, amount: string, confirmations: number, asset = 'USDT') => {
    const o = c.paymentOptions[0]!;
    await checkouts.reportTransfer(
      {
        chain: o.chain,
        txHash: `demo_${c.id}_${asset}`,
        index: 0,
        toAddress: o.address,
        asset,
        amount,
        confirmations,
      },
      { operator: 'demo' },
    );
  };
  const open = await make('49.90', 'Demo: a checkout waiting for payment', 'demo-open');
  const underpaid = await make('120', 'Demo: paid in part', 'demo-underpaid');
  await pay(underpaid, '50', 1);
  const processing = await make('15', 'Demo: payment seen, waiting for a confirmation', 'demo-processing');
  await pay(processing, String(processing.paymentOptions[0]!.amountDue), 0);
  const canceled = await make('30', 'Demo: canceled by the shop', 'demo-canceled');
  await checkouts.cancel(merchantId, canceled.id);
  const review = await make('10', 'Demo: paid in the wrong asset', 'demo-review');
  await pay(review, '25', 1, 'TRX');
  // Settling it values the TRX received at today's rates (the checkout offered no TRX, so no rate
  // was locked): the demo feed's (`serve --demo` starts it first), else rates set here.
  const ctx = { operator: 'demo' };
  const fed = (await services.admin.listRates()).some((r) => r.base === 'TRX' && r.quote === 'EUR');
  if (!fed) {
    await services.admin.setRate({ base: 'EUR', quote: 'TRX', rate: '3.9', source: DEMO_PIN_SOURCE }, ctx);
    await services.admin.setRate({ base: 'USDT', quote: 'TRX', rate: '3.6', source: DEMO_PIN_SOURCE }, ctx);
  }
  const settled: string[] = [];
  for (const [amount, orderId] of [
    ['25', 'demo-settled-1'],
    ['64.5', 'demo-settled-2'],
  ] as const) {
    const c = await make(amount, 'Demo: paid and settled', orderId);
    await pay(c, String(c.paymentOptions[0]!.amountDue), 1);
    settled.push(c.id);
  }
  // To an address no checkout owns: the console's unmatched-transfers queue shows it.
  await checkouts.reportTransfer(
    {
      chain: 'TRON',
      txHash: 'demo_unmatched',
      index: 0,
      toAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
      asset: 'USDT',
      amount: '12.5',
      confirmations: 1,
    },
    { operator: 'demo' },
  );
  return [open.id, underpaid.id, processing.id, canceled.id, review.id, ...settled];
}

/**
 * The page of an open demo checkout for the banner: the newest open one, or a new one when every
 * demo checkout has expired since the data was created (a reused data directory).
 */
export async function demoCheckoutUrl(services: Services, merchantId: string): Promise<string> {
  const open = await services.checkouts.listForMerchant(merchantId, { status: 'open' }, { limit: 1 });
  const first = open.items[0];
  if (first !== undefined && Date.parse(first.expiresAt) > Date.now() + 60_000) return first.url;
  const created = await services.checkouts.create(merchantId, {
    amount: '49.90',
    currency: 'EUR',
    description: 'Demo: a checkout waiting for payment',
    orderId: 'demo-open',
    expiresIn: 86_400,
  });
  return created.url;
}
