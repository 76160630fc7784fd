import type { Command } from 'commander';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { printAdmin, printList } from '../admin/print.js';
import type { Io } from '../output.js';
import { registerRateSpread } from './rate-spread.js';

/** Rates convert a checkout amount into the fee currency (`fee set --fee-currency`, `settlement set`). */
export function registerRate(program: Command, io: Io): void {
  const rate = program.command('rate').description('manage conversion rates for fee currencies');

  withWriteOptions(rate.command('set').description('set the rate: 1 BASE = RATE QUOTE (the inverse is derived)'))
    .argument('<base>', 'e.g. EUR')
    .argument('<quote>', 'e.g. USDT')
    .argument('<rate>', 'positive decimal, e.g. 1.0842')
    .option('--source <text>', 'where the rate comes from, for the audit log (default: manual)')
    .action(async (base: string, quote: string, value: string, opts: WriteOptions & { source?: string }) => {
      const set = await withBackend(io, opts, (b) =>
        b.rates.set({ base, quote, rate: value, source: opts.source }, opts),
      );
      printAdmin(io, opts.json, set, () => `rate set: 1 ${set.base} = ${set.rate} ${set.quote}`);
    });

  withAdminOptions(rate.command('list').description('list conversion rates')).action(async (opts: AdminOptions) => {
    const rates = await withBackend(io, opts, (b) => b.rates.list());
    printList(io, opts.json, rates, {
      columns: [
        { header: 'BASE' },
        { header: 'QUOTE' },
        { header: 'RATE', align: 'decimal' },
        { header: 'SOURCE' },
        { header: 'UPDATED' },
      ],
      row: (r) => [r.base, r.quote, r.rate, r.source, r.updatedAt],
      empty: 'no rates: set one with hostpay rate set BASE QUOTE RATE',
    });
  });

  registerRateSpread(rate, io);
}
