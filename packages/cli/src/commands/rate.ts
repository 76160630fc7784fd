import type { Command } from 'commander';
import { withServices } from '../context.js';
import { printResult, type Io } from '../output.js';
import { withStoreOptions, type StoreOptions } from '../options.js';

/** Rates convert a checkout amount into the fee currency (`fee set --fee-currency`). */
export function registerRate(program: Command, io: Io): void {
  const rate = program.command('rate').description('manage conversion rates for fee currencies');

  withStoreOptions(rate.command('set').description('set the rate: 1 BASE = RATE QUOTE (the inverse is derived)'))
    .argument('<base>', 'e.g. EUR')
    .argument('<quote>', 'e.g. USDT')
    .argument('<rate>', 'positive decimal, e.g. 1.0842')
    .action(async (base: string, quote: string, value: string, opts: StoreOptions) => {
      const rate = await withServices(io, opts.dataDir, (s, audit) => s.admin.setRate({ base, quote, rate: value }, audit));
      printResult(io, opts.json, rate, () => `rate set: 1 ${rate.base} = ${String(rate.rate)} ${rate.quote}`);
    });
}
