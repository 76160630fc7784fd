import type { Command } from 'commander';
import { Decimal, decimalText } from '@hostpay/protocol';
import { resolveCredentials, withCredentialOptions, type CredentialFlags } from '../credentials.js';
import { merchantCaller } from '../merchant-call.js';
import { withJsonOption } from '../options.js';
import { printResult, UsageError, type Io } from '../output.js';

const C = '/api/v1/cp/psp/hosted-pay';
const TRIGGERS = [
  'checkout.created',
  'checkout.underpaid',
  'checkout.processing',
  'checkout.settled',
  'checkout.canceled',
  'wallet.balance_changed',
] as const;
interface Checkout {
  id: string;
  status: string;
  paymentOptions: { asset: string; chain: string; amountDue: string }[];
}

/**
 * `hostpay trigger checkout.settled`: creates a checkout on a sandbox server and drives it to the
 * state that writes the event (through simulate-payment, as a payer would), so webhooks and
 * `hostpay listen` see real events.
 */
export function registerTrigger(program: Command, io: Io): void {
  const cmd = program
    .command('trigger')
    .description(
      'make a sandbox checkout produce an event: checkout.created, underpaid, processing, settled, canceled, wallet.balance_changed',
    )
    .argument('<event>', TRIGGERS.join(' | '))
    .option('--amount <n>', 'checkout amount (default 10)', '10')
    .option('--currency <code>', 'checkout currency (default: the asset)')
    .option('--asset <symbol>', 'asset to pay with (default USDT)', 'USDT')
    .option('--chain <symbol>', 'chain to pay on (default TRON)', 'TRON');
  withJsonOption(
    withCredentialOptions(cmd, {
      tokenHelp: 'bearer token (default: $HOSTPAY_TOKEN; without one the command obtains its own)',
    }),
  ).action(
    async (
      event: string,
      opts: CredentialFlags & { amount: string; currency?: string; asset: string; chain: string; json?: boolean },
    ) => {
      if (!(TRIGGERS as readonly string[]).includes(event))
        throw new UsageError(`cannot trigger ${event}: use one of ${TRIGGERS.join(', ')}`);
      const call = merchantCaller(resolveCredentials(opts, io.env));
      const option = { asset: opts.asset, chain: opts.chain };
      let checkout = (
        await call<Checkout>('POST', C, {
          amount: opts.amount,
          currency: opts.currency ?? opts.asset,
          paymentOptions: [option],
        })
      ).result;
      const pay = async (extra: Record<string, unknown>) =>
        (checkout = (await call<Checkout>('POST', `${C}/${checkout.id}/simulate-payment`, { ...option, ...extra }))
          .result);
      if (event === 'checkout.settled' || event === 'wallet.balance_changed') await pay({});
      else if (event === 'checkout.processing') await pay({ confirmations: 0 });
      else if (event === 'checkout.underpaid') {
        const due = checkout.paymentOptions[0]?.amountDue ?? '0';
        await pay({ amount: decimalText(new Decimal(due).div(2).toDecimalPlaces(6, Decimal.ROUND_DOWN)) });
      } else if (event === 'checkout.canceled')
        checkout = (await call<Checkout>('POST', `${C}/${checkout.id}/cancel`)).result;
      printResult(
        io,
        opts.json,
        { checkoutId: checkout.id, status: checkout.status },
        () => `checkout ${checkout.id} is ${checkout.status}: see the events with hostpay events list`,
      );
    },
  );
}
