import { Option, type Command } from 'commander';
import type { FeeTier } from '../admin/backend.js';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { printAdmin, printList } from '../admin/print.js';
import { UsageError, type Io } from '../output.js';
import { describeFees } from './fees-preview.js';

interface FeeSetOptions extends WriteOptions {
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

  withWriteOptions(
    fee.command('set').description('set a fee tier for a currency: the default schedule, or a merchant override'),
  )
    .requiredOption('--currency <code>', 'currency the checkout is asked in, e.g. USDT or EUR')
    .addOption(new Option('--percent <p>', 'percentage of the amount (1.5 = 1.5 %)').conflicts('fixed'))
    .addOption(new Option('--fixed <f>', 'fixed fee per payment, in the fee currency').conflicts('percent'))
    .option('--min <m>', 'smallest fee (default 0)')
    .option('--on-chain-fee <x>', 'network fee added on top (default 0)')
    .option(
      '--fee-currency <c2>',
      'charge fees in this currency (needs a rate: hostpay rate set); same as hostpay settlement set',
    )
    .option('--from-amount <a>', 'tier applies from this amount up (default 0)')
    .option('--merchant <id>', 'override for one merchant (default: the default schedule)')
    .addHelpText(
      'after',
      '\nExactly one of --percent and --fixed is required. Setting a tier with the same currency, schedule\nand --from-amount replaces it.',
    )
    .action(async (opts: FeeSetOptions) => {
      const value = opts.percent ?? opts.fixed;
      if (value === undefined) throw new UsageError('fee set needs --percent <p> or --fixed <f>');
      const req = {
        currency: opts.currency,
        isPercentage: opts.percent !== undefined,
        value,
        minValue: opts.min,
        onChainFee: opts.onChainFee,
        fromAmount: opts.fromAmount,
        feeCurrency: opts.feeCurrency,
        merchantId: opts.merchant,
      };
      const tier = await withBackend(io, opts, (b) => b.fees.set(req, opts));
      // The stored tier plus the fee currency this call set (the tier itself does not carry it).
      const out = { ...tier, feeCurrency: opts.feeCurrency?.toUpperCase() ?? null };
      printAdmin(io, opts.json, out, () => {
        const charged = out.feeCurrency === null ? '' : `, charged in ${out.feeCurrency}`;
        const where = out.merchantId === null ? 'default schedule' : `merchant ${out.merchantId}`;
        return `fee for ${out.currency} from ${out.fromAmount} (${where}): ${rule(out)}, min ${out.minValue}, on-chain ${out.onChainFee}${charged}`;
      });
    });

  withAdminOptions(fee.command('list').description('list fee tiers: the default schedule and every merchant override'))
    .option('--merchant <id>', "only this merchant's override")
    .option('--default', 'only the default schedule')
    .option('--currency <code>', 'only tiers for this currency')
    .action(async (opts: AdminOptions & { merchant?: string; default?: boolean; currency?: string }) => {
      if (opts.default === true && opts.merchant !== undefined)
        throw new UsageError('fee list takes --merchant or --default, not both');
      const merchantId = opts.default === true ? '' : opts.merchant;
      const tiers = await withBackend(io, opts, (b) => b.fees.list({ merchantId, currency: opts.currency }));
      printList(io, opts.json, tiers, {
        columns: [
          { header: 'ID' },
          { header: 'SCHEDULE' },
          { header: 'CURRENCY' },
          { header: 'FROM', align: 'decimal' },
          { header: 'RULE' },
          { header: 'MIN', align: 'decimal' },
          { header: 'ON-CHAIN', align: 'decimal' },
        ],
        row: (t) => [t.id, schedule(t), t.currency, t.fromAmount, rule(t), t.minValue, t.onChainFee],
        empty: 'no fee tiers: set one with hostpay fee set --currency C --percent P',
      });
    });

  withWriteOptions(fee.command('delete').description('delete one fee tier (see hostpay fee list for ids)'))
    .argument('<fee-id>', 'e.g. fee_...')
    .action(async (id: string, opts: WriteOptions) => {
      const deleted = await withBackend(io, opts, (b) => b.fees.delete(id, opts));
      printAdmin(io, opts.json, deleted, () => `deleted fee tier ${deleted.id}`);
    });

  withAdminOptions(
    fee
      .command('preview')
      .description("the fee a merchant's checkout would be charged, computed as the merchant API does"),
  )
    .requiredOption('--merchant <id>', 'the merchant whose schedule applies (its override, else the default)')
    .argument('<amount>', 'checkout amount: positive decimal, at most 18 fractional digits')
    .argument('<currency>', 'currency asked for, e.g. EUR or USDT')
    .action(async (amount: string, currency: string, opts: AdminOptions & { merchant: string }) => {
      const preview = await withBackend(io, opts, (b) =>
        b.fees.preview({ merchantId: opts.merchant, amount, currency }),
      );
      printAdmin(io, opts.json, preview, () => describeFees(preview, "the merchant's own schedule"));
    });
}

const schedule = (t: Pick<FeeTier, 'merchantId'>): string => (t.merchantId === null ? 'default' : t.merchantId);
const rule = (t: Pick<FeeTier, 'isPercentage' | 'value'>): string =>
  t.isPercentage ? `${t.value} %` : `fixed ${t.value}`;
