import { Option, type Command } from 'commander';
import { withServices } from '../context.js';
import { printResult, UsageError, type Io } from '../output.js';
import { withStoreOptions, type StoreOptions } from '../options.js';

interface FeeSetOptions extends StoreOptions {
  currency: string;
  percent?: string;
  fixed?: string;
  min?: string;
  onChainFee?: string;
  feeCurrency?: string;
  fromAmount?: string;
  merchant?: string;
}

export function registerFee(program: Command, io: Io): void {
  const fee = program.command('fee').description('manage fee schedules');

  withStoreOptions(fee.command('set').description('set a fee tier for a currency: the default schedule, or a merchant override'))
    .requiredOption('--currency <code>', 'currency the checkout is asked in, e.g. USDT or EUR')
    .addOption(new Option('--percent <p>', 'percentage of the amount (1.5 = 1.5 %)').conflicts('fixed'))
    .addOption(new Option('--fixed <f>', 'fixed fee per payment, in the fee currency').conflicts('percent'))
    .option('--min <m>', 'smallest fee (default 0)')
    .option('--on-chain-fee <x>', 'network fee added on top (default 0)')
    .option('--fee-currency <c2>', 'charge fees in this currency (needs a rate: hostpay rate set)')
    .option('--from-amount <a>', 'tier applies from this amount up (default 0)')
    .option('--merchant <id>', 'override for one merchant (default: the default schedule)')
    .addHelpText('after', '\nExactly one of --percent and --fixed is required.')
    .action(async (opts: FeeSetOptions) => {
      const value = opts.percent ?? opts.fixed;
      if (value === undefined) throw new UsageError('fee set needs --percent <p> or --fixed <f>');
      const tier = await withServices(io, opts.dataDir, (s, audit) =>
        s.admin.setFee(
          {
            currency: opts.currency,
            isPercentage: opts.percent !== undefined,
            value,
            minValue: opts.min,
            onChainFee: opts.onChainFee,
            fromAmount: opts.fromAmount,
            feeCurrency: opts.feeCurrency,
            merchantId: opts.merchant,
          },
          audit,
        ),
      );
      // The stored tier plus the fee currency this call set (the tier row does not carry it).
      const out = { ...tier, feeCurrency: opts.feeCurrency?.toUpperCase() ?? null };
      printResult(io, opts.json, out, () => {
        const schedule = out.merchantId === null ? 'default schedule' : `merchant ${out.merchantId}`;
        const charge = out.isPercentage ? `${String(out.value)} %` : `fixed ${String(out.value)}`;
        const charged = out.feeCurrency === null ? '' : `, charged in ${out.feeCurrency}`;
        return `fee for ${out.currency} from ${String(out.fromAmount)} (${schedule}): ${charge}, min ${String(out.minValue)}, on-chain ${String(out.onChainFee)}${charged}`;
      });
    });
}
