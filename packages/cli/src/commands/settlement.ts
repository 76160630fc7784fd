import type { Command } from 'commander';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { orDash, printAdmin, printList } from '../admin/print.js';
import type { Io } from '../output.js';

/** Which currency the fees for a checkout currency are charged in (fee preview's `currency`). */
export function registerSettlement(program: Command, io: Io): void {
  const settlement = program
    .command('settlement')
    .description('manage settlement currencies: the currency fees are charged in');

  withWriteOptions(
    settlement
      .command('set')
      .description('charge the fees of checkouts in CURRENCY in SETTLEMENT_CURRENCY (needs a rate between them)'),
  )
    .argument('<currency>', 'currency the checkout is asked in, e.g. EUR')
    .argument('<settlement-currency>', 'currency the fees are charged in, e.g. USDT')
    .option('--merchant <id>', 'for one merchant only (default: every merchant without its own setting)')
    .action(async (currency: string, settlementCurrency: string, opts: WriteOptions & { merchant?: string }) => {
      const set = await withBackend(io, opts, (b) =>
        b.settlement.set({ currency, settlementCurrency, merchantId: opts.merchant }, opts),
      );
      printAdmin(
        io,
        opts.json,
        set,
        () =>
          `fees for ${set.currency} are charged in ${set.settlementCurrency} (${set.merchantId === null ? 'default' : `merchant ${set.merchantId}`})`,
      );
    });

  withAdminOptions(
    settlement.command('list').description('list settlement currencies, default and per merchant'),
  ).action(async (opts: AdminOptions) => {
    const items = await withBackend(io, opts, (b) => b.settlement.list());
    printList(io, opts.json, items, {
      columns: [{ header: 'SCHEDULE' }, { header: 'CURRENCY' }, { header: 'CHARGED IN' }, { header: 'UPDATED' }],
      row: (s) => [s.merchantId ?? 'default', s.currency, s.settlementCurrency, orDash(s.updatedAt)],
      empty: 'no settlement currencies: fees are charged in the currency asked for',
    });
  });
}
