import type { Command } from 'commander';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { printAdmin } from '../admin/print.js';
import type { Io } from '../output.js';

/**
 * `hostpay rate spread show|set`: the operators' default markup on the payer's rate (a merchant's
 * own: `hostpay merchant update ID --rate-spread P`).
 */
export function registerRateSpread(rate: Command, io: Io): void {
  const spread = rate
    .command('spread')
    .description("the default spread added to the payer's rate of converted checkout options");

  withAdminOptions(spread.command('show').description('show the default rate spread')).action(
    async (opts: AdminOptions) => {
      const s = await withBackend(io, opts, (b) => b.rateSpread.get());
      printAdmin(io, opts.json, s, () =>
        s.updatedAt === null
          ? `default rate spread: ${s.percent} % (never set)`
          : `default rate spread: ${s.percent} % (set ${s.updatedAt})`,
      );
    },
  );

  withWriteOptions(
    spread.command('set').description('set the default rate spread (applies to checkouts created afterwards)'),
  )
    .argument('<percent>', 'percent, 0 to 10, at most 4 fractional digits, e.g. 1.5')
    .action(async (percent: string, opts: WriteOptions) => {
      const s = await withBackend(io, opts, (b) => b.rateSpread.set(percent, opts));
      printAdmin(io, opts.json, s, () => `default rate spread set: ${s.percent} %`);
    });
}
